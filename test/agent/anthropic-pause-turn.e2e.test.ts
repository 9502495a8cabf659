import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/index.js';
import { createAnthropicModel } from '../../src/providers/anthropic/index.js';
import {
  type AnthropicWireServer,
  messageStream,
  startAnthropicWireServer,
} from '../support/anthropic-wire-server.js';
import { readWriteTools } from './support.js';

let server: AnthropicWireServer;
beforeEach(async () => {
  server = await startAnthropicWireServer();
});
afterEach(async () => {
  await server.close();
});

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

describe('agentLoop over Anthropic: a turn the API paused', () => {
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
});
