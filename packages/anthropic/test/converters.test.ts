import {
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  InvalidArgumentError,
  type TranscriptMessage,
} from 'switchyard';
import { recordingTool } from 'switchyard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  messageBody,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import {
  proposedCallsFromMessage,
  toAnthropicMessages,
  toAnthropicToolResults,
  toAnthropicTools,
} from '../src/index.js';

let server: AnthropicWireServer;
beforeEach(async () => {
  server = await startAnthropicWireServer();
});
afterEach(async () => {
  await server.close();
});

const read = recordingTool({ name: 'read', description: 'Read a file' }).returns('# A');
const stat = recordingTool({ name: 'fs.stat', description: '', foreignName: true }).throws(
  new Error('no such file'),
);
const registry = createToolRegistry([read.tool, stat.tool]);

/** A non-streamed turn through the SDK: the server answers with these content blocks. */
async function nonStreamedMessage(content: Record<string, unknown>[]) {
  server.reply({ json: messageBody(content) });
  return server.client().messages.create({
    model: 'claude-wire',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Go.' }],
    tools: toAnthropicTools(registry.modelDefinitions()),
  });
}

describe('the Anthropic converters without the agent loop', () => {
  it('toAnthropicTools sends aliases and leaves an empty description out', () => {
    expect(toAnthropicTools(registry.modelDefinitions())).toEqual([
      { name: 'read', description: 'Read a file', input_schema: { type: 'object' } },
      { name: 'fs_stat', input_schema: { type: 'object' } },
    ]);
  });

  it('proposedCallsFromMessage reads tool_use blocks in order and leaves hosted calls and text out', async () => {
    const message = await nonStreamedMessage([
      { type: 'text', text: 'Looking.', citations: null },
      {
        type: 'server_tool_use',
        id: 'srvtoolu_1',
        name: 'web_search',
        input: { query: 'a' },
        caller: { type: 'direct' },
      },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'read',
        input: { path: 'a.md' },
        caller: { type: 'direct' },
      },
      { type: 'tool_use', id: 'toolu_2', name: 'fs_stat', input: {}, caller: { type: 'direct' } },
    ]);
    expect(proposedCallsFromMessage(message)).toEqual([
      { id: 'toolu_1', name: 'read', arguments: { path: 'a.md' } },
      { id: 'toolu_2', name: 'fs_stat', arguments: {} },
    ]);
    expect(proposedCallsFromMessage({ content: [null, 7, { type: 'tool_use' }] })).toEqual([]);
  });

  it('toAnthropicToolResults answers each dispatched call by id, flagging failures with is_error', async () => {
    const message = await nonStreamedMessage([
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'read',
        input: { path: 'a.md' },
        caller: { type: 'direct' },
      },
      { type: 'tool_use', id: 'toolu_2', name: 'fs_stat', input: {}, caller: { type: 'direct' } },
      { type: 'tool_use', id: 'toolu_3', name: 'nope', input: {}, caller: { type: 'direct' } },
    ]);
    const results = await dispatchTurn(proposedCallsFromMessage(message), {
      dispatcher: createDispatcher({ registry }),
    });
    expect(results.map(({ toolCallId, ok, status }) => ({ toolCallId, ok, status }))).toEqual([
      { toolCallId: 'toolu_1', ok: true, status: 'ok' },
      { toolCallId: 'toolu_2', ok: false, status: 'error' },
      { toolCallId: 'toolu_3', ok: false, status: 'tool_not_found' },
    ]);
    expect(toAnthropicToolResults(results)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '# A', is_error: false },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        content: results[1]!.observation,
        is_error: true,
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_3',
        content: results[2]!.observation,
        is_error: true,
      },
    ]);
    expect(results[1]!.observation).toContain('no such file');
  });
});

describe('toAnthropicMessages on misuse', () => {
  it('refuses a transcript message of an unknown role', () => {
    const convert = () =>
      toAnthropicMessages([{ role: 'narrator', content: 'hi' } as unknown as TranscriptMessage]);
    expect(convert).toThrow(InvalidArgumentError);
    expect(convert).toThrow(
      expect.objectContaining({ code: 'SY_ERR_INVALID_ARGUMENT', argument: 'transcript' }),
    );
    expect(convert).toThrow(/"narrator"/);
  });
});
