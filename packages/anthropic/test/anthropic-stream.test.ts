import type { ModelClient } from 'switchyard';
import { ModelError } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { deferred } from 'switchyard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  blockFrames,
  messageStart,
  messageStream,
  pingFrame,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { eventsOf, providerRegistry, runTurn } from './support.js';

let server: AnthropicWireServer;
let model: ModelClient;
const registry = providerRegistry();
const request: ModelRequest = {
  messages: [{ role: 'user', text: 'Go.' }],
  tools: registry.modelDefinitions(),
};

beforeEach(async () => {
  server = await startAnthropicWireServer();
  model = createAnthropicModel({ model: 'claude-wire', client: server.client() });
});
afterEach(async () => {
  await server.close();
});

const toolUse = (id: string, name: string, jsonPieces: string[]) => ({
  toolUse: { id, name, jsonPieces },
});

describe('createAnthropicModel: streamed turns into the native detector', () => {
  it('promotes several tool_use blocks streamed in fragments, under canonical names, in the order they opened', async () => {
    const frames = messageStream(
      [
        { text: ['Reading ', 'three things.'] },
        toolUse('toolu_1', 'read', ['', '{"pa', 'th": "a', '.md"}']),
        toolUse('toolu_2', 'fs_stat', ['{"path"', ': "b.md"}']),
        toolUse('toolu_3', 'search', []),
      ],
      { inputTokens: 321, outputTokens: 54 },
    );
    server.reply({ stream: [pingFrame(), ...frames.slice(0, 6), pingFrame(), ...frames.slice(6)] });
    const { deltas, events, error } = await runTurn(model, request, registry);

    expect(error).toBeUndefined();
    expect(eventsOf(events, 'text').map((event) => event.text)).toEqual([
      'Reading ',
      'three things.',
    ]);
    expect(
      eventsOf(events, 'candidate_promoted').map(({ call, emitOrder, rawInput }) => ({
        call,
        emitOrder,
        rawInput,
      })),
    ).toEqual([
      {
        call: { id: 'toolu_1', name: 'read', arguments: { path: 'a.md' } },
        emitOrder: 0,
        rawInput: '{"path": "a.md"}',
      },
      {
        call: { id: 'toolu_2', name: 'fs.stat', arguments: { path: 'b.md' } },
        emitOrder: 1,
        rawInput: '{"path": "b.md"}',
      },
      { call: { id: 'toolu_3', name: 'search', arguments: {} }, emitOrder: 2, rawInput: '' },
    ]);
    expect(eventsOf(events, 'candidate_retracted')).toEqual([]);
    expect(deltas.slice(-2)).toEqual([
      { type: 'usage', inputTokens: 321, outputTokens: 54 },
      { type: 'finish', reason: 'tool_use', safe: true },
    ]);
  });

  it('promotes a call as soon as the next block opens, while the rest of the message is still held', async () => {
    const release = deferred<void>();
    const frames = messageStream([
      toolUse('toolu_1', 'read', ['{"path": "a.md"}']),
      toolUse('toolu_2', 'write', ['{"path": "b.md"}']),
    ]);
    // message_start, block 0 (start, delta, stop), block 1 start: then the server waits.
    server.reply({
      stream: [...frames.slice(0, 5), { waitFor: release.promise }, ...frames.slice(5)],
    });
    let promotedWhileHeld: string[] | undefined;
    const { events } = await runTurn(model, request, registry, (delta, sofar) => {
      if (delta.type === 'call_start' && delta.key === '1') {
        promotedWhileHeld = eventsOf(sofar, 'candidate_promoted').map((event) => event.toolCallId);
        release.resolve();
      }
    });
    expect(promotedWhileHeld).toEqual(['toolu_1']);
    expect(eventsOf(events, 'candidate_promoted').map((event) => event.toolCallId)).toEqual([
      'toolu_1',
      'toolu_2',
    ]);
  });

  it('retracts the call cut by max_tokens as cut_off even though the API closed its block', async () => {
    server.reply({
      stream: messageStream(
        [
          toolUse('toolu_1', 'read', ['{"path": "a.md"}']),
          toolUse('toolu_2', 'write', ['{"path": "b.md", "te']),
        ],
        { stopReason: 'max_tokens' },
      ),
    });
    const { deltas, events, error } = await runTurn(model, request, registry);
    expect(error).toBeUndefined();
    expect(eventsOf(events, 'candidate_promoted').map((event) => event.toolCallId)).toEqual([
      'toolu_1',
    ]);
    expect(eventsOf(events, 'candidate_retracted')).toEqual([
      {
        type: 'candidate_retracted',
        toolCallId: 'toolu_2',
        toolName: 'write',
        source: 'native',
        status: 'failed',
        parsing: false,
        errorCategory: 'parse_aborted',
        reason: 'cut_off',
        error:
          "The response was cut off (finish reason 'max_tokens') before the arguments of the call to 'write' were complete; the call was not run. Call the tool again; if its arguments are long, split the work into smaller calls.",
        rawInput: '{"path": "b.md", "te',
      },
    ]);
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'max_tokens', safe: false });
  });

  it('rejects with a retryable transient_network ModelError when the connection drops mid-call', async () => {
    const received = deferred<void>();
    server.reply({
      stream: [
        messageStart(),
        ...blockFrames(0, toolUse('toolu_1', 'read', ['{"path": "a.md"}'])),
        ...blockFrames(1, toolUse('toolu_2', 'write', ['{"path": "b']), { close: false }),
        // Cut only once the client has read everything before the cut.
        { waitFor: received.promise },
      ],
      ending: 'cut',
    });
    const { deltas, events, error } = await runTurn(model, request, registry, (delta) => {
      if (delta.type === 'call_arguments' && delta.key === '1') received.resolve();
    });
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'SY_ERR_MODEL',
      provider: 'anthropic',
      category: 'transient_network',
      status: undefined,
      retryable: true,
    });
    // The dropped socket itself, not a stream that merely ended early (that is a ModelError too).
    expect((error as Error).cause).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(deltas.some((delta) => delta.type === 'finish')).toBe(false);
    // The first call was whole (the next block had opened); the second never finished.
    expect(eventsOf(events, 'candidate_promoted').map((event) => event.toolCallId)).toEqual([
      'toolu_1',
    ]);
    expect(
      eventsOf(events, 'candidate_retracted').map(({ toolCallId, reason }) => ({
        toolCallId,
        reason,
      })),
    ).toEqual([{ toolCallId: 'toolu_2', reason: 'incomplete' }]);
  });

  it('rejects with a ModelError when the stream ends cleanly before the message had a stop reason', async () => {
    server.reply({
      stream: [messageStart(), ...blockFrames(0, toolUse('toolu_1', 'read', ['{"path": "a.md"}']))],
    });
    const { events, error } = await runTurn(model, request, registry);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ category: 'transient_network', retryable: true });
    // The block closed, but nothing said it was whole: it is not run.
    expect(eventsOf(events, 'candidate_promoted')).toEqual([]);
    expect(eventsOf(events, 'candidate_retracted').map((event) => event.reason)).toEqual([
      'incomplete',
    ]);
  });

  it('finishes with the stop reason when the stream ends after message_delta without message_stop', async () => {
    server.reply({
      stream: messageStream([toolUse('toolu_1', 'read', ['{"path": "a.md"}'])], {
        messageStop: false,
      }),
    });
    const { deltas, events, error } = await runTurn(model, request, registry);
    expect(error).toBeUndefined();
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'tool_use', safe: true });
    expect(eventsOf(events, 'candidate_promoted').map((event) => event.toolCallId)).toEqual([
      'toolu_1',
    ]);
  });

  it('promotes a whole call whose arguments are not valid JSON with their text, for the dispatcher to refuse', async () => {
    server.reply({ stream: messageStream([toolUse('toolu_1', 'read', ['{"path": ', "'a.md'}"])]) });
    const { events } = await runTurn(model, request, registry);
    expect(eventsOf(events, 'candidate_retracted')).toEqual([]);
    const [promotion] = eventsOf(events, 'candidate_promoted');
    expect(promotion).toMatchObject({
      toolCallId: 'toolu_1',
      toolName: 'read',
      call: { id: 'toolu_1', name: 'read', arguments: `{"path": 'a.md'}` },
      rawInput: `{"path": 'a.md'}`,
    });
  });

  it('promotes a whole call to a tool that was not advertised under its own name, in order', async () => {
    server.reply({
      stream: messageStream([
        toolUse('toolu_1', 'delete_everything', ['{}']),
        toolUse('toolu_2', 'read', ['{"path": "a.md"}']),
      ]),
    });
    const { events } = await runTurn(model, request, registry);
    expect(eventsOf(events, 'candidate_retracted')).toEqual([]);
    expect(
      eventsOf(events, 'candidate_promoted').map(({ toolCallId, toolName, emitOrder }) => ({
        toolCallId,
        toolName,
        emitOrder,
      })),
    ).toEqual([
      { toolCallId: 'toolu_1', toolName: 'delete_everything', emitOrder: 0 },
      { toolCallId: 'toolu_2', toolName: 'read', emitOrder: 1 },
    ]);
  });

  it('records hosted server_tool_use blocks as provider-native calls and never promotes them', async () => {
    server.reply({
      stream: messageStream([
        {
          serverToolUse: {
            id: 'srvtoolu_1',
            name: 'web_search',
            jsonPieces: ['{"query": ', '"tides"}'],
          },
        },
        { block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] } },
        { text: 'Found tide tables.' },
        toolUse('toolu_1', 'read', ['{"path": "tides.md"}']),
      ]),
    });
    const { deltas, events } = await runTurn(model, request, registry);
    expect(deltas[0]).toEqual({
      type: 'call_start',
      key: '0',
      id: 'srvtoolu_1',
      name: 'web_search',
      providerNative: true,
    });
    expect(
      eventsOf(events, 'candidate_opened').map(({ toolCallId, providerNative }) => ({
        toolCallId,
        providerNative,
      })),
    ).toEqual([
      { toolCallId: 'srvtoolu_1', providerNative: true },
      { toolCallId: 'toolu_1', providerNative: false },
    ]);
    expect(eventsOf(events, 'provider_native_call')).toEqual([
      {
        type: 'provider_native_call',
        toolCallId: 'srvtoolu_1',
        toolName: 'web_search',
        source: 'native',
        rawInput: '{"query": "tides"}',
        input: { query: 'tides' },
      },
    ]);
    expect(
      eventsOf(events, 'candidate_promoted').map(({ toolCallId, emitOrder }) => ({
        toolCallId,
        emitOrder,
      })),
    ).toEqual([{ toolCallId: 'toolu_1', emitOrder: 0 }]);
  });
});
