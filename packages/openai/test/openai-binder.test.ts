// The OpenAI binder (`createOpenAIBinder`) through the real SDK against a loopback wire server,
// behind the core's withNaturalLanguageExecutor.
import { OpenAI } from 'openai';
import { InvalidOptionError } from 'switchyard';
import { DEFAULT_BINDER_SYSTEM, withNaturalLanguageExecutor } from 'switchyard/middleware';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  binderAuditOf,
  recordingNext,
  WEATHER_SCHEMA,
  weatherCall,
} from '../../../test/support/binder-envelope.js';
import { manualTimer } from '../../../test/support/manual-timer.js';
import {
  chatCompletionReply,
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIBinder } from '../src/index.js';

const PARIS = { city: 'Paris', unit: 'c' };
const neverFires = () => () => {};

describe('the default binder over the OpenAI SDK', () => {
  let server: OpenAIWireServer;
  beforeEach(async () => {
    server = await startOpenAIWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  function openAI(): OpenAI {
    // The client keeps the SDK's default retries: the binder must turn them off per request.
    return new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL });
  }

  it('asks Chat Completions for a strict json_schema answer and binds the parsed arguments', async () => {
    server.reply('/v1/chat/completions', chatCompletionReply([], { text: JSON.stringify(PARIS) }));
    const next = recordingNext();
    const caller = withNaturalLanguageExecutor({
      provider: 'openai',
      model: 'gpt-5-nano',
      binderFn: createOpenAIBinder({ client: openAI(), model: 'gpt-5-nano' }),
      timer: neverFires,
    });
    const result = await caller(weatherCall({ city: 'Paris', _nl_intent: 'celsius' }), next);
    const request = await server.nextRequest();
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.body).toMatchObject({
      model: 'gpt-5-nano',
      temperature: 0,
      max_completion_tokens: 1024,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'get_weather', schema: WEATHER_SCHEMA, strict: true },
      },
    });
    expect(request.body.stream).toBeUndefined();
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages[0]).toEqual({ role: 'system', content: DEFAULT_BINDER_SYSTEM });
    expect(messages[1]!.role).toBe('user');
    expect(messages[1]!.content).toContain('celsius');
    expect(messages[1]!.content).toContain('{"city":"Paris"}');
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
    expect(result.audit?.binder).toMatchObject({
      provider: 'openai',
      model: 'gpt-5-nano',
      status: 'ok',
      attempts: 1,
    });
  });

  it('sends the configured temperature, token cap and system prompt', async () => {
    server.reply('/v1/chat/completions', chatCompletionReply([], { text: JSON.stringify(PARIS) }));
    const caller = withNaturalLanguageExecutor({
      provider: 'openai',
      model: 'gpt-5-nano',
      binderFn: createOpenAIBinder({
        client: openAI(),
        model: 'gpt-5-nano',
        temperature: 0.3,
        maxTokens: 64,
      }),
      system: 'Bind. JSON only.',
      timer: neverFires,
    });
    await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    const request = await server.nextRequest();
    expect(request.body).toMatchObject({ temperature: 0.3, max_completion_tokens: 64 });
    expect((request.body.messages as { content: string }[])[0]!.content).toBe('Bind. JSON only.');
  });

  it('makes one request only when the server fails, whatever the client retry setting', async () => {
    server.reply('/v1/chat/completions', { status: 500, json: { error: { message: 'boom' } } });
    const caller = withNaturalLanguageExecutor({
      provider: 'openai',
      model: 'gpt-5-nano',
      binderFn: createOpenAIBinder({ client: openAI(), model: 'gpt-5-nano' }),
      timeoutMs: 10_000,
      timer: neverFires,
    });
    const result = await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    // A retry would have been answered 404 (nothing queued) and counted here.
    expect(server.requests).toHaveLength(1);
    expect(result.audit?.binder).toMatchObject({ status: 'transport_error', attempts: 1 });
    expect(binderAuditOf(result)?.reason).toMatch(/^binder transport error: 500/);
  });

  it('aborts the HTTP request when the budget runs out', async () => {
    server.reply('/v1/chat/completions', { hold: true });
    const manual = manualTimer();
    const caller = withNaturalLanguageExecutor({
      provider: 'openai',
      model: 'gpt-5-nano',
      binderFn: createOpenAIBinder({ client: openAI(), model: 'gpt-5-nano' }),
      timer: manual.timer,
    });
    const pending = caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    const request = await server.nextRequest();
    manual.fire();
    const result = await pending;
    expect(result.audit?.binder).toMatchObject({ status: 'timeout' });
    await request.abandoned; // the server saw the client go away
  });

  it('reports an answer without content as a schema_error', async () => {
    server.reply('/v1/chat/completions', chatCompletionReply([], { text: null }));
    const caller = withNaturalLanguageExecutor({
      provider: 'openai',
      model: 'gpt-5-nano',
      binderFn: createOpenAIBinder({ client: openAI(), model: 'gpt-5-nano' }),
      timer: neverFires,
    });
    const result = await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    await server.nextRequest();
    expect(result.audit?.binder).toMatchObject({
      status: 'schema_error',
      reason: 'binder response is not valid JSON',
    });
  });

  it('names the schema after the tool in a provider-safe way and can turn strict off', async () => {
    server.reply('/v1/chat/completions', chatCompletionReply([], { text: '{}' }));
    const binderFn = createOpenAIBinder({ client: openAI(), model: 'm', strict: false });
    await binderFn({
      tool: 'weather.get now',
      description: '',
      intent: 'x',
      partialArgs: {},
      schema: { type: 'object' },
      system: 's',
      prompt: 'p',
      signal: new AbortController().signal,
    });
    const request = await server.nextRequest();
    expect(request.body.response_format).toMatchObject({
      json_schema: { name: 'weather_get_now', strict: false },
    });
  });

  it('refuses a client that is not an OpenAI client', () => {
    expect(() => createOpenAIBinder({ client: {} as OpenAI, model: 'm' })).toThrowError(
      InvalidOptionError,
    );
  });
});
