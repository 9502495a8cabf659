import { CancelledError, ModelError } from 'switchyard';
import type { ToolCallDelta } from 'switchyard/streams';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatChunk,
  chatToolCallStream,
  errorFrame,
  errorReply,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIChatModel } from '../src/index.js';
import { chatModel as model, registry, request } from './model-fixture.js';
import { collect, detect, rejectionOf } from './support.js';
import { server } from './wire-server-fixture.js';

describe('createOpenAIChatModel failures', () => {
  it('rejects with a retryable rate_limit ModelError on a 429 before the stream', async () => {
    server.reply(CHAT_PATH, errorReply(429, 'Rate limit reached', { code: 'rate_limit_exceeded' }));

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      provider: 'openai',
      category: 'rate_limit',
      status: 429,
      retryable: true,
    });
  });

  it('rejects with a non-retryable auth ModelError on a 401', async () => {
    server.reply(
      CHAT_PATH,
      errorReply(401, 'Incorrect API key provided', { code: 'invalid_api_key' }),
    );

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({
      code: 'SY_ERR_MODEL',
      category: 'auth',
      status: 401,
      retryable: false,
    });
  });

  it('rejects with a retryable server_error ModelError on a 500', async () => {
    server.reply(CHAT_PATH, errorReply(500, 'The server had an error', { type: 'server_error' }));

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({
      code: 'SY_ERR_MODEL',
      category: 'server_error',
      status: 500,
      retryable: true,
    });
  });

  it('rejects with an overloaded ModelError on an error frame mid-stream, after the deltas before it', async () => {
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"pa'] }], {
      finish: null,
    });
    server.reply(CHAT_PATH, {
      sse: [...steps, errorFrame('The engine is currently overloaded', 'overloaded_error')],
    });
    const seen: ToolCallDelta[] = [];

    const error = await rejectionOf(
      (async () => {
        for await (const delta of model().stream(request())) seen.push(delta);
      })(),
    );

    expect(seen.map((delta) => delta.type)).toEqual(['call_start', 'call_arguments']);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ category: 'overloaded', status: undefined, retryable: true });
  });

  it('classifies a server_error frame mid-stream by its type, not its message', async () => {
    server.reply(CHAT_PATH, {
      sse: [
        chatChunk({ role: 'assistant', content: 'Hi' }),
        errorFrame('The server had an error while processing your request.', 'server_error'),
      ],
    });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({ category: 'server_error', retryable: true });
  });

  it('rejects with a transient_network ModelError when the connection is cut mid-call', async () => {
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path"'] }], {
      finish: null,
    });
    server.reply(CHAT_PATH, { sse: [...steps, { cut: true }] });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ category: 'transient_network', retryable: true });
  });

  it('rejects with a transient_network ModelError when the server cannot be reached', async () => {
    const gone = await startOpenAIWireServer();
    const client = gone.client();
    await gone.close();

    const unreachable = createOpenAIChatModel({ model: 'fake-model', client });
    const error = await rejectionOf(collect(unreachable.stream(request())));

    expect(error).toMatchObject({ code: 'SY_ERR_MODEL', category: 'transient_network' });
  });

  it('ends without a finish when the body ends early, and the detector retracts the open call', async () => {
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path"'] }], {
      finish: null,
    });
    server.reply(CHAT_PATH, { sse: steps });

    const deltas = await collect(model().stream(request()));

    expect(deltas.some((delta) => delta.type === 'finish')).toBe(false);
    expect(
      detect(deltas, registry).find((event) => event.type === 'candidate_retracted'),
    ).toMatchObject({
      toolCallId: 'call_a',
      reason: 'incomplete',
    });
  });
});

describe('createOpenAIChatModel cancellation', () => {
  it('rejects with CancelledError, not a silent end, when the signal aborts mid-stream', async () => {
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"pa'] }], {
      finish: null,
    });
    server.reply(CHAT_PATH, { sse: [...steps, { hold: true }] });
    const controller = new AbortController();
    const reason = new CancelledError('user pressed stop');
    const seen: ToolCallDelta[] = [];

    const error = await rejectionOf(
      (async () => {
        for await (const delta of model().stream(request({ signal: controller.signal }))) {
          seen.push(delta);
          if (delta.type === 'call_arguments') controller.abort(reason);
        }
      })(),
    );

    expect(error).toBe(reason);
    expect(seen.map((delta) => delta.type)).toEqual(['call_start', 'call_arguments']);
    await (await server.nextRequest()).abandoned;
  });

  it('rejects with CancelledError when the signal aborts before the response starts', async () => {
    server.reply(CHAT_PATH, { hold: true });
    const controller = new AbortController();
    const turn = collect(model().stream(request({ signal: controller.signal })));

    const arrived = await server.nextRequest();
    controller.abort();
    const error = await rejectionOf(turn);

    expect(error).toBeInstanceOf(CancelledError);
    expect(error).not.toBeInstanceOf(ModelError);
    await arrived.abandoned;
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();

    const error = await rejectionOf(
      collect(model().stream(request({ signal: controller.signal }))),
    );

    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requests).toEqual([]);
  });
});
