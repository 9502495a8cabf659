import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentLoop,
  CancelledError,
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  ModelError,
} from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import {
  CHAT_PATH,
  chatToolCallStream,
  errorFrame,
  errorReply,
  type OpenAIWireServer,
  RESPONSES_PATH,
  responsesToolCallStream,
  startOpenAIWireServer,
} from '../support/openai-wire-server.js';

import { readWriteTools } from './support.js';

let server: OpenAIWireServer;
beforeAll(async () => {
  server = await startOpenAIWireServer();
});
afterAll(() => server.close());

const answer = (text: string) => ({ sse: chatToolCallStream([], { text, finish: 'stop' }) });
const chatModel = () => createOpenAIChatModel({ model: 'fake-model', client: server.client() });

/** The `role: 'tool'` messages of a recorded Chat request. */
function toolMessages(body: Record<string, unknown>) {
  return (body.messages as { role: string; tool_call_id?: string; content?: string }[]).filter(
    (message) => message.role === 'tool',
  );
}

describe('agentLoop over OpenAI Chat Completions (real SDK, loopback server)', () => {
  it('runs a streamed turn of fragmented calls and sends the results back in planner order', async () => {
    const { read, write, registry } = readWriteTools();
    server.reply(
      CHAT_PATH,
      {
        sse: chatToolCallStream(
          [
            { id: 'c1', name: 'write', arguments: ['{"path":', '"out.txt"}'] },
            { id: 'c2', name: 'read', arguments: ['{"pa', 'th": "a.md"}'] },
          ],
          { text: 'On it.' },
        ),
      },
      answer('Both done.'),
    );
    const run = await agentLoop({ task: 'copy', model: chatModel(), tools: registry });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('Both done.');
    expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['c1', 'ok'],
      ['c2', 'ok'],
    ]);
    expect(write.callCount).toBe(1);
    expect(read.lastCall?.args).toEqual({ path: 'a.md' });
    const second = server.requests.at(-1)?.body ?? {};
    expect(toolMessages(second).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['c1', JSON.stringify({ path: 'out.txt' })],
      ['c2', 'text of a.md'],
    ]);
    expect(run.usage).toEqual({ inputTokens: 20, outputTokens: 40 });
  });

  it('starts a safe call while the model is still streaming the next one', async () => {
    const { read, registry } = readWriteTools();
    const release = deferred<void>();
    const steps = chatToolCallStream([
      { id: 'r1', name: 'read', arguments: ['{"path":"a"}'] },
      { id: 'r2', name: 'read', arguments: ['{"path":"b"}'] },
    ]);
    // Hold the stream inside the second call: the first is complete and already running.
    const cut = steps.findIndex(
      (step) => 'data' in step && JSON.stringify(step.data).includes('"r2"'),
    );
    server.reply(
      CHAT_PATH,
      { sse: [...steps.slice(0, cut + 1), { waitFor: release.promise }, ...steps.slice(cut + 1)] },
      answer('ok'),
    );
    const running = agentLoop({ task: 't', model: chatModel(), tools: registry });
    const first = await read.nextCall();
    expect(first.callId).toBe('r1');
    release.resolve();
    const run = await running;
    expect(run.results.map((r) => r.toolCallId)).toEqual(['r1', 'r2']);
  });

  it('retracts a call cut off by finish_reason length: it never runs, the model is told', async () => {
    const { write, registry } = readWriteTools();
    server.reply(
      CHAT_PATH,
      {
        sse: chatToolCallStream(
          [{ id: 'w1', name: 'write', arguments: ['{"path":"x', '.txt","te'] }],
          { finish: 'length' },
        ),
      },
      answer('I will retry later.'),
    );
    const run = await agentLoop({ task: 't', model: chatModel(), tools: registry });
    expect(write.callCount).toBe(0);
    expect(run.turns[0]?.retracted.map((r) => r.reason)).toEqual(['cut_off']);
    const told = toolMessages(server.requests.at(-1)?.body ?? {});
    expect(told.map((m) => m.tool_call_id)).toEqual(['w1']);
    expect(told[0]?.content).toMatch(/cut off|length/i);
  });

  it('retracts malformed JSON with a repair message, and an unknown tool with the tool list', async () => {
    const { write, registry } = readWriteTools();
    server.reply(
      CHAT_PATH,
      {
        sse: chatToolCallStream([
          { id: 'bad', name: 'write', arguments: ['{"path": "a",, }'] },
          { id: 'who', name: 'delete', arguments: ['{}'] },
        ]),
      },
      answer('Sorry.'),
    );
    const run = await agentLoop({ task: 't', model: chatModel(), tools: registry });
    expect(write.callCount).toBe(0);
    expect(run.turns[0]?.retracted.map((r) => [r.toolCallId, r.reason])).toEqual([
      ['bad', 'invalid_json'],
      ['who', 'unknown_tool'],
    ]);
    const second = server.requests.at(-1)?.body ?? {};
    const assistant = (
      second.messages as { role: string; tool_calls?: { function: { arguments: string } }[] }[]
    ).find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls?.[0]?.function.arguments).toBe('{"path": "a",, }');
    const [bad, who] = toolMessages(second);
    expect(bad?.content).toMatch(/JSON/);
    expect(who?.content).toContain('read');
  });

  it('retries a turn hit by a 429 mid-stream error frame, then completes', async () => {
    const { registry } = readWriteTools();
    server.reply(
      CHAT_PATH,
      {
        sse: [
          ...chatToolCallStream([], { text: 'Work', finish: null }),
          errorFrame('Rate limit reached', 'requests', 'rate_limit_exceeded'),
        ],
      },
      answer('Done after a retry.'),
    );
    const run = await agentLoop({
      task: 't',
      model: chatModel(),
      tools: registry,
      sleep: async () => {},
    });
    expect(run.status).toBe('completed');
    expect(run.turns.map((turn) => turn.outcome)).toEqual(['failed', 'completed']);
    expect(run.turns[0]?.error).toMatchObject({ category: 'rate_limit', retryable: true });
  });

  it('fails with a classified ModelError on a 429 when retries are off', async () => {
    const { registry } = readWriteTools();
    server.reply(
      CHAT_PATH,
      errorReply(429, 'Too many requests', { type: 'requests', code: 'rate_limit_exceeded' }),
    );
    const run = await agentLoop({
      task: 't',
      model: chatModel(),
      tools: registry,
      maxModelRetries: 0,
    });
    expect(run.status).toBe('failed');
    expect(ModelError.isInstance(run.error)).toBe(true);
    expect(run.error).toMatchObject({ provider: 'openai', category: 'rate_limit', status: 429 });
  });

  it('is cancelled by an abort mid-stream: the eager call is stopped, the held one never runs', async () => {
    const { read, write, registry } = readWriteTools();
    read.hangs({ untilAborted: true });
    server.reply(CHAT_PATH, {
      sse: [
        ...chatToolCallStream(
          [
            { id: 'r1', name: 'read', arguments: ['{"path":"a"}'] },
            { id: 'w1', name: 'write', arguments: ['{"path":"b"}'] },
          ],
          { finish: null },
        ),
        { hold: true },
      ],
    });
    const controller = new AbortController();
    const running = agentLoop({
      task: 't',
      model: chatModel(),
      tools: registry,
      signal: controller.signal,
    });
    await read.nextCall();
    controller.abort();
    const run = await running;
    expect(run.status).toBe('cancelled');
    expect(CancelledError.isInstance(run.error)).toBe(true);
    expect(read.lastCall?.signal.aborted).toBe(true);
    expect(write.callCount).toBe(0);
  });
});

describe('agentLoop over OpenAI Responses (real SDK, loopback server)', () => {
  it('runs the calls and replays them as function_call / function_call_output items', async () => {
    const { registry } = readWriteTools();
    server.reply(
      RESPONSES_PATH,
      {
        sse: responsesToolCallStream([
          { itemId: 'fc_1', id: 'call_r1', name: 'read', arguments: ['{"path":', '"z.md"}'] },
        ]),
      },
      { sse: responsesToolCallStream([], { text: 'It says hello.' }) },
    );
    const model = createOpenAIResponsesModel({ model: 'fake-model', client: server.client() });
    const run = await agentLoop({ task: 'read z', model, tools: registry });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('It says hello.');
    const input = server.requests.at(-1)?.body.input as {
      type: string;
      call_id?: string;
      output?: string;
    }[];
    expect(input.filter((item) => item.type !== 'message')).toEqual([
      expect.objectContaining({ type: 'function_call', call_id: 'call_r1', name: 'read' }),
      { type: 'function_call_output', call_id: 'call_r1', output: 'text of z.md' },
    ]);
  });
});
