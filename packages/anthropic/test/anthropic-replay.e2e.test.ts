import { agentLoop } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { readWriteTools } from '../../../test/agent/support.js';
import {
  blockFrames,
  messageDelta,
  messageStart,
  messageStop,
  messageStream,
} from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { server } from './wire-server-fixture.js';

const searchResult = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    {
      type: 'web_search_result',
      url: 'https://example.invalid/switchyard',
      title: 'Switchyard',
      encrypted_content: 'opaque',
      page_age: null,
    },
  ],
};

describe('agentLoop over Anthropic: turns sent back as the API recorded them', () => {
  it('sends the paused turn back verbatim, hosted result and all, and the model carries on', async () => {
    server.reply(
      {
        stream: messageStream(
          [
            { text: 'Searching.' },
            {
              serverToolUse: {
                id: 'srvtoolu_1',
                name: 'web_search',
                jsonPieces: ['{"query":', ' "switchyard"}'],
              },
            },
            { block: searchResult },
          ],
          { stopReason: 'pause_turn' },
        ),
      },
      { stream: messageStream([{ text: 'Found it.' }]) },
    );
    const { registry } = readWriteTools();
    const model = createAnthropicModel({
      model: 'claude-wire',
      client: server.client(),
      hostedTools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });

    const run = await agentLoop({ task: 'Find Switchyard.', model, tools: registry });

    expect(run.status).toBe('completed');
    expect(run.iterations).toBe(2);
    expect(run.text).toBe('Found it.');
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    // The blocks as the API sent them, response-only fields included, as its docs ask.
    expect(second.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [
        expect.objectContaining({ type: 'text', text: 'Searching.' }),
        expect.objectContaining({
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'web_search',
          input: { query: 'switchyard' },
        }),
        searchResult,
      ],
    });
  });

  it('rebuilds a turn of text and client calls from the transcript, with nothing recorded', async () => {
    server.reply(
      {
        stream: messageStream([
          { toolUse: { id: 'toolu_1', name: 'read', jsonPieces: ['{"path": "a.md"}'] } },
        ]),
      },
      { stream: messageStream([{ text: 'Read.' }]) },
    );
    const { registry } = readWriteTools();
    const model = createAnthropicModel({ model: 'claude-wire', client: server.client() });

    const run = await agentLoop({ task: 'Read a.md.', model, tools: registry });

    expect(run.status).toBe('completed');
    expect(run.transcript.some((message) => 'providerContent' in message)).toBe(false);
  });

  it('sends a thinking turn back with its signed thinking block before the tool call', async () => {
    const thinkingDelta = (delta: Record<string, unknown>) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta },
    });
    server.reply(
      {
        stream: [
          messageStart(),
          ...blockFrames(
            0,
            { block: { type: 'thinking', thinking: '', signature: '' } },
            { close: false },
          ),
          thinkingDelta({ type: 'thinking_delta', thinking: 'Read it ' }),
          thinkingDelta({ type: 'thinking_delta', thinking: 'first.' }),
          thinkingDelta({ type: 'signature_delta', signature: 'sig-1' }),
          { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
          ...blockFrames(1, {
            toolUse: { id: 'toolu_1', name: 'read', jsonPieces: ['{"path": "a.md"}'] },
          }),
          messageDelta('tool_use'),
          messageStop(),
        ],
      },
      { stream: messageStream([{ text: 'Read.' }]) },
    );
    const { registry, read } = readWriteTools();
    const model = createAnthropicModel({
      model: 'claude-wire',
      client: server.client(),
      extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });

    const run = await agentLoop({ task: 'Read a.md.', model, tools: registry });

    expect(run.status).toBe('completed');
    expect(read.lastCall?.args).toEqual({ path: 'a.md' });
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read it first.', signature: 'sig-1' },
        expect.objectContaining({ type: 'tool_use', id: 'toolu_1', input: { path: 'a.md' } }),
      ],
    });
  });
});
