// The Anthropic binder (`createAnthropicBinder`) through the real SDK against a loopback wire
// server, behind the core's withNaturalLanguageExecutor.
import { Anthropic } from '@anthropic-ai/sdk';
import { InvalidOptionError } from 'switchyard';
import { DEFAULT_BINDER_SYSTEM, withNaturalLanguageExecutor } from 'switchyard/middleware';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  messageBody,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import {
  recordingNext,
  WEATHER_SCHEMA,
  weatherCall,
} from '../../../test/support/binder-envelope.js';
import { createAnthropicBinder } from '../src/index.js';

const PARIS = { city: 'Paris', unit: 'c' };
const neverFires = () => () => {};

describe('the default binder over the Anthropic SDK', () => {
  let server: AnthropicWireServer;
  beforeEach(async () => {
    server = await startAnthropicWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  function anthropic(): Anthropic {
    // The client keeps the SDK's default retries: the binder must turn them off per request.
    return new Anthropic({ apiKey: 'test-key', baseURL: server.baseURL });
  }

  it('asks Messages for a json_schema output and binds the JSON text', async () => {
    server.reply({ json: messageBody([{ type: 'text', text: JSON.stringify(PARIS) }]) });
    const next = recordingNext();
    const caller = withNaturalLanguageExecutor({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      binderFn: createAnthropicBinder({
        client: anthropic(),
        model: 'claude-haiku-4-5',
        maxTokens: 200,
      }),
      timer: neverFires,
    });
    const result = await caller(weatherCall({ _nl_intent: 'Paris in celsius' }), next);
    const request = await server.nextRequest();
    expect(request.path).toBe('/v1/messages');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.headers['anthropic-version']).toBeTypeOf('string');
    expect(request.body).toMatchObject({
      model: 'claude-haiku-4-5',
      max_tokens: 200,
      system: DEFAULT_BINDER_SYSTEM,
      output_config: { format: { type: 'json_schema', schema: WEATHER_SCHEMA } },
    });
    // The 2026-10-21 Messages API has no sampling temperature.
    expect(request.body).not.toHaveProperty('temperature');
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain('Paris in celsius');
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
    expect(result.audit?.binder).toMatchObject({ provider: 'anthropic', status: 'ok' });
  });

  it('sends the default token cap of 1024', async () => {
    server.reply({ json: messageBody([{ type: 'text', text: '{}' }]) });
    const caller = withNaturalLanguageExecutor({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      binderFn: createAnthropicBinder({ client: anthropic(), model: 'claude-haiku-4-5' }),
      timer: neverFires,
    });
    await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect((await server.nextRequest()).body.max_tokens).toBe(1024);
  });

  it('can force a tool call whose input schema is the tool schema', async () => {
    server.reply({
      json: messageBody([
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'get_weather',
          input: PARIS,
          caller: { type: 'direct' },
        },
      ]),
    });
    const next = recordingNext();
    const caller = withNaturalLanguageExecutor({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      binderFn: createAnthropicBinder({
        client: anthropic(),
        model: 'claude-haiku-4-5',
        mode: 'tool',
      }),
      timer: neverFires,
    });
    await caller(weatherCall({ _nl_intent: 'Paris in celsius' }), next);
    const request = await server.nextRequest();
    expect(request.body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather in a city',
        input_schema: WEATHER_SCHEMA,
      },
    ]);
    expect(request.body.tool_choice).toEqual({
      type: 'tool',
      name: 'get_weather',
      disable_parallel_tool_use: true,
    });
    expect(request.body).not.toHaveProperty('output_config');
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
  });

  it('reports a forced-tool answer without a tool call as a schema_error', async () => {
    server.reply({ json: messageBody([{ type: 'text', text: 'I cannot.' }]) });
    const caller = withNaturalLanguageExecutor({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      binderFn: createAnthropicBinder({ client: anthropic(), model: 'm', mode: 'tool' }),
      timer: neverFires,
    });
    const result = await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    await server.nextRequest();
    expect(result.audit?.binder).toMatchObject({
      status: 'schema_error',
      reason: 'binder returned an unexpected response shape',
    });
  });

  it('reports an overloaded server as a transport_error after one request', async () => {
    server.reply({
      status: 529,
      json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const caller = withNaturalLanguageExecutor({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      binderFn: createAnthropicBinder({ client: anthropic(), model: 'claude-haiku-4-5' }),
      onFailure: 'reject',
      timeoutMs: 10_000,
      timer: neverFires,
    });
    const result = await caller(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(server.requests).toHaveLength(1);
    expect(result.errorCategory).toBe('schema_violation');
    expect(result.audit?.binder).toMatchObject({ status: 'transport_error' });
    expect(result.error).toMatch(/^binder transport error: 529/);
  });

  it('refuses an unknown mode and a client that is not an Anthropic client', () => {
    expect(() =>
      createAnthropicBinder({ client: anthropic(), model: 'm', mode: 'grammar' as 'tool' }),
    ).toThrowError(InvalidOptionError);
    expect(() => createAnthropicBinder({ client: {} as Anthropic, model: 'm' })).toThrowError(
      InvalidOptionError,
    );
  });
});
