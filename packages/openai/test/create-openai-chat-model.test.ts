import { CancelledError, ModelError } from 'switchyard';
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';
import type { ModelRequest } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';
import { deferred } from 'switchyard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatChunk,
  chatToolCallStream,
  errorFrame,
  errorReply,
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIChatModel } from '../src/index.js';
import { collect, detect, openAITestRegistry, rejectionOf } from './support.js';

const registry = openAITestRegistry();
let server: OpenAIWireServer;

beforeEach(async () => {
  server = await startOpenAIWireServer();
});
afterEach(async () => {
  await server.close();
});

function model() {
  return createOpenAIChatModel({ model: 'fake-model', client: server.client() });
}

function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [{ role: 'user', text: 'Look at a.md and b.md' }],
    tools: registry.modelDefinitions(),
    ...extra,
  };
}

describe('createOpenAIChatModel streaming', () => {
  it('turns a streamed turn with several fragmented calls into deltas the detector promotes in order', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream(
        [
          { id: 'call_a', name: 'read', arguments: ['{"pa', 'th": "a', '.md"}'] },
          { id: 'call_b', name: 'fs_stat', arguments: ['{"path":', ' "b.md"}'] },
        ],
        { text: 'Looking.', usage: { input: 11, output: 22 } },
      ),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas).toEqual<ToolCallDelta[]>([
      { type: 'text', text: 'Looking.' },
      { type: 'call_start', key: '0', id: 'call_a', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"pa' },
      { type: 'call_arguments', key: '0', fragment: 'th": "a' },
      { type: 'call_arguments', key: '0', fragment: '.md"}' },
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'call_b', name: 'fs_stat' },
      { type: 'call_arguments', key: '1', fragment: '{"path":' },
      { type: 'call_arguments', key: '1', fragment: ' "b.md"}' },
      { type: 'finish', reason: 'tool_calls', safe: true },
      { type: 'usage', inputTokens: 11, outputTokens: 22 },
    ]);
    const promoted = detect(deltas, registry).filter(
      (event) => event.type === 'candidate_promoted',
    );
    expect(promoted.map(({ call, emitOrder }) => ({ call, emitOrder }))).toEqual([
      { call: { id: 'call_a', name: 'read', arguments: { path: 'a.md' } }, emitOrder: 0 },
      { call: { id: 'call_b', name: 'fs.stat', arguments: { path: 'b.md' } }, emitOrder: 1 },
    ]);
  });

  it('yields each delta as its chunk arrives, and the finish promotes the calls', async () => {
    const gate = deferred<void>();
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path":"a"}'] }]);
    const finishAt = steps.length - 3;
    server.reply(CHAT_PATH, {
      sse: [...steps.slice(0, finishAt), { waitFor: gate.promise }, ...steps.slice(finishAt)],
    });
    const events: DetectorEvent[] = [];
    const detector = createNativeDetector({
      toolNames: registry.names(),
      onEvent: (event) => events.push(event),
      coalesceMs: false,
    });
    const seenBeforeFinish: string[] = [];

    for await (const delta of model().stream(request())) {
      detector.push(delta);
      if (delta.type === 'call_arguments') {
        seenBeforeFinish.push(...events.map((event) => event.type));
        gate.resolve();
      }
    }

    expect(seenBeforeFinish).toEqual(['candidate_opened']);
    expect(events.map((event) => event.type)).toEqual(['candidate_opened', 'candidate_promoted']);
  });

  it('retracts a call cut off by finish_reason length', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_a', name: 'write', arguments: ['{"path": "a'] }], {
        finish: 'length',
      }),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas).toContainEqual({ type: 'finish', reason: 'length', safe: false });
    const events = detect(deltas, registry);
    expect(events.filter((event) => event.type === 'candidate_promoted')).toEqual([]);
    expect(events.find((event) => event.type === 'candidate_retracted')).toMatchObject({
      toolCallId: 'call_a',
      reason: 'cut_off',
      rawInput: '{"path": "a',
    });
  });

  it('promotes a whole call with malformed JSON arguments as their text, for the dispatcher to refuse', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path": a.md}'] }]),
    });

    const events = detect(await collect(model().stream(request())), registry);

    expect(events.find((event) => event.type === 'candidate_retracted')).toBeUndefined();
    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'call_a',
      call: { name: 'read', arguments: '{"path": a.md}' },
    });
  });

  it('promotes a whole call to a tool that was not advertised under its own name', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_x', name: 'delete', arguments: ['{}'] }]),
    });

    const events = detect(await collect(model().stream(request())), registry);

    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'call_x',
      toolName: 'delete',
      call: { name: 'delete', arguments: {} },
    });
  });

  it('yields only text and a safe finish for a turn without calls', async () => {
    server.reply(CHAT_PATH, {
      sse: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ content: 'Done' }),
        chatChunk({ content: '.' }),
        chatChunk({}, 'stop'),
        { data: '[DONE]' },
      ],
    });

    expect(await collect(model().stream(request()))).toEqual([
      { type: 'text', text: 'Done' },
      { type: 'text', text: '.' },
      { type: 'finish', reason: 'stop', safe: true },
    ]);
  });
});

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
