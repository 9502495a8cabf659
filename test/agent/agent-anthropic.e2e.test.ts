import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLoop, CancelledError, createAnthropicModel, ModelError } from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import {
  type AnthropicWireServer,
  errorFrame,
  errorReply,
  messageStream,
  startAnthropicWireServer,
} from '../support/anthropic-wire-server.js';

import { readWriteTools } from './support.js';

let server: AnthropicWireServer;
beforeAll(async () => {
  server = await startAnthropicWireServer();
});
afterAll(() => server.close());

const model = () => createAnthropicModel({ model: 'claude-wire', client: server.client() });
const answer = (text: string) => ({ stream: messageStream([{ text }]) });

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
/** The `tool_result` blocks of the last user message of a recorded request. */
function toolResults(body: Record<string, unknown>): Block[] {
  const messages = body.messages as { role: string; content: string | Block[] }[];
  const last = messages.at(-1);
  return Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

describe('agentLoop over Anthropic Messages (real SDK, loopback server)', () => {
  it('runs fragmented tool_use blocks and answers them with tool_result blocks in order', async () => {
    const { read, write, registry } = readWriteTools();
    server.reply(
      {
        stream: messageStream([
          { text: 'On it.' },
          { toolUse: { id: 'toolu_1', name: 'write', jsonPieces: ['{"path":', ' "o.txt"}'] } },
          { toolUse: { id: 'toolu_2', name: 'read', jsonPieces: ['', '{"path": "a.md"}'] } },
        ]),
      },
      answer('Both done.'),
    );
    const run = await agentLoop({ task: 'copy', model: model(), tools: registry });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('Both done.');
    expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['toolu_1', 'ok'],
      ['toolu_2', 'ok'],
    ]);
    expect(write.callCount).toBe(1);
    expect(read.lastCall?.args).toEqual({ path: 'a.md' });
    expect(toolResults(server.requests.at(-1)?.body ?? {})).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: JSON.stringify({ path: 'o.txt' }),
        is_error: false,
      },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'text of a.md', is_error: false },
    ]);
  });

  it('starts a safe call while the model is still streaming the next block', async () => {
    const { read, registry } = readWriteTools();
    const release = deferred<void>();
    const frames = messageStream([
      { toolUse: { id: 'toolu_1', name: 'read', jsonPieces: ['{"path":"a"}'] } },
      { toolUse: { id: 'toolu_2', name: 'read', jsonPieces: ['{"path":"b"}'] } },
    ]);
    const second = frames.findIndex((frame) => JSON.stringify(frame.data).includes('toolu_2'));
    server.reply(
      {
        stream: [
          ...frames.slice(0, second + 1),
          { waitFor: release.promise },
          ...frames.slice(second + 1),
        ],
      },
      answer('ok'),
    );
    const running = agentLoop({ task: 't', model: model(), tools: registry });
    expect((await read.nextCall()).callId).toBe('toolu_1');
    release.resolve();
    const run = await running;
    expect(run.results.map((r) => r.toolCallId)).toEqual(['toolu_1', 'toolu_2']);
  });

  it('retracts a call cut off by max_tokens: never run, is_error result to the model', async () => {
    const { write, registry } = readWriteTools();
    server.reply(
      {
        stream: messageStream(
          [{ toolUse: { id: 'toolu_w', name: 'write', jsonPieces: ['{"path": "x'] } }],
          {
            stopReason: 'max_tokens',
          },
        ),
      },
      answer('I ran out of room.'),
    );
    const run = await agentLoop({ task: 't', model: model(), tools: registry });
    expect(write.callCount).toBe(0);
    expect(run.turns[0]?.retracted.map((r) => r.reason)).toEqual(['cut_off']);
    expect(toolResults(server.requests.at(-1)?.body ?? {})).toMatchObject([
      { tool_use_id: 'toolu_w', is_error: true },
    ]);
  });

  it('retracts malformed JSON and an unknown tool, telling the model how to repair them', async () => {
    const { write, registry } = readWriteTools();
    server.reply(
      {
        stream: messageStream([
          { toolUse: { id: 'toolu_bad', name: 'write', jsonPieces: ['{"path": nope}'] } },
          { toolUse: { id: 'toolu_who', name: 'erase', jsonPieces: ['{}'] } },
        ]),
      },
      answer('Sorry.'),
    );
    const run = await agentLoop({ task: 't', model: model(), tools: registry });
    expect(write.callCount).toBe(0);
    expect(run.turns[0]?.retracted.map((r) => r.reason)).toEqual(['invalid_json', 'unknown_tool']);
    const [bad, who] = toolResults(server.requests.at(-1)?.body ?? {});
    expect(bad).toMatchObject({ tool_use_id: 'toolu_bad', is_error: true });
    expect(String(bad?.content)).toMatch(/JSON/);
    expect(String(who?.content)).toContain('read');
  });

  it('retries a turn that an overloaded error frame broke mid-stream', async () => {
    const { registry } = readWriteTools();
    const broken = messageStream([{ text: 'Work' }], { stopReason: null });
    server.reply(
      { stream: [...broken, errorFrame('overloaded_error', 'Overloaded')] },
      answer('Done.'),
    );
    const run = await agentLoop({
      task: 't',
      model: model(),
      tools: registry,
      sleep: async () => {},
    });
    expect(run.status).toBe('completed');
    expect(run.turns[0]?.error).toMatchObject({ category: 'overloaded', retryable: true });
  });

  it('fails with a rate_limit ModelError on a 429 when retries are off', async () => {
    const { registry } = readWriteTools();
    server.reply(
      errorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit'),
    );
    const run = await agentLoop({ task: 't', model: model(), tools: registry, maxModelRetries: 0 });
    expect(run.status).toBe('failed');
    expect(ModelError.isInstance(run.error)).toBe(true);
    expect(run.error).toMatchObject({ provider: 'anthropic', category: 'rate_limit', status: 429 });
  });

  it('is cancelled by an abort mid-stream: the eager call is stopped, the held one never runs', async () => {
    const { read, write, registry } = readWriteTools();
    read.hangs({ untilAborted: true });
    server.reply({
      stream: messageStream(
        [
          { toolUse: { id: 'toolu_r', name: 'read', jsonPieces: ['{"path":"a"}'] } },
          { toolUse: { id: 'toolu_w', name: 'write', jsonPieces: ['{"path":"b"}'] } },
        ],
        { stopReason: null },
      ),
      ending: 'hold',
    });
    const controller = new AbortController();
    const running = agentLoop({
      task: 't',
      model: model(),
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
