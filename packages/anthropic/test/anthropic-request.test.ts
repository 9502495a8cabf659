import type { TranscriptMessage } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  messageStream,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { providerRegistry } from './support.js';

let server: AnthropicWireServer;
beforeEach(async () => {
  server = await startAnthropicWireServer();
});
afterEach(async () => {
  await server.close();
});

const PATH_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
};

/** Sends one turn and returns the body the server received. */
async function sentBody(
  request: ModelRequest,
  options: { disableParallelToolUse?: boolean; extraBody?: Record<string, unknown> } = {},
) {
  server.reply({ stream: messageStream([{ text: 'ok' }]) });
  const model = createAnthropicModel({ model: 'claude-wire', client: server.client(), ...options });
  for await (const _ of model.stream(request)) {
    // Drain: the request is what this suite looks at.
  }
  return (await server.nextRequest()).body;
}

describe('createAnthropicModel on the wire: the request', () => {
  it('posts a streamed Messages request with the tools under their provider-safe names', async () => {
    const model = createAnthropicModel({
      model: 'claude-wire',
      apiKey: 'key-from-options',
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    server.reply({ stream: messageStream([{ text: 'ok' }]) });
    for await (const _ of model.stream({
      system: 'Be brief.',
      messages: [{ role: 'user', text: 'Stat b.md' }],
      tools: providerRegistry().modelDefinitions(),
    })) {
      // Drain.
    }
    const request = await server.nextRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers.authorization).toBe('Bearer key-from-options');
    expect(request.headers['anthropic-version']).toBe('2026-10-21');
    expect(request.body).toEqual({
      model: 'claude-wire',
      max_tokens: 4096,
      stream: true,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Stat b.md' }] }],
      tools: [
        { name: 'read', description: 'Read a file', input_schema: PATH_SCHEMA },
        { name: 'write', description: 'Write a file', input_schema: PATH_SCHEMA },
        { name: 'search', description: 'Search the files', input_schema: { type: 'object' } },
        { name: 'fs_stat', description: 'Stat a path', input_schema: { type: 'object' } },
      ],
    });
  });

  it('sends neither tools nor system when there are none, and disables parallel tool use on request', async () => {
    const bare = await sentBody({ messages: [{ role: 'user', text: 'Hi' }], tools: [] });
    expect(Object.keys(bare).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);

    const single = await sentBody(
      { messages: [{ role: 'user', text: 'Hi' }], tools: providerRegistry().modelDefinitions() },
      { disableParallelToolUse: true },
    );
    expect(single.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('sends extraBody fields, with the fields the adapter sets winning', async () => {
    const body = await sentBody(
      { messages: [{ role: 'user', text: 'Hi' }], tools: [] },
      {
        extraBody: {
          thinking: { type: 'enabled', budget_tokens: 2048 },
          metadata: { user_id: 'u1' },
          model: 'not-this-one',
          stream: false,
        },
      },
    );
    expect(body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      metadata: { user_id: 'u1' },
      model: 'claude-wire',
      stream: true,
    });
  });

  it('sends hosted tools after the client tools, and alone when there are no client tools', async () => {
    const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 2 } as const;
    server.reply(
      { stream: messageStream([{ text: 'ok' }]) },
      { stream: messageStream([{ text: 'ok' }]) },
    );
    const model = createAnthropicModel({
      model: 'claude-wire',
      client: server.client(),
      hostedTools: [webSearch],
    });
    const turn = async (tools: ModelRequest['tools']) => {
      for await (const _ of model.stream({ messages: [{ role: 'user', text: 'Hi' }], tools })) {
        // Drain.
      }
      return (await server.nextRequest()).body.tools as { name: string }[];
    };
    const withClientTools = await turn(providerRegistry().modelDefinitions());
    expect(withClientTools.map((tool) => tool.name)).toEqual([
      'read',
      'write',
      'search',
      'fs_stat',
      'web_search',
    ]);
    expect(withClientTools.at(-1)).toEqual(webSearch);
    expect(await turn([])).toEqual([webSearch]);
  });

  it('replays a transcript: tool_use blocks pair with tool_result blocks, errors flagged, hosted calls left out', async () => {
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Read a.md and stat b.md' },
      {
        role: 'assistant',
        text: 'Reading both.',
        toolCalls: [
          { id: 'toolu_1', name: 'read', argumentsText: '{"path":"a.md"}' },
          {
            id: 'srvtoolu_1',
            name: 'web_search',
            argumentsText: '{"query":"b.md"}',
            providerNative: true,
          },
          // Retracted as invalid_json: replayed with {} so that its tool_result still pairs.
          { id: 'toolu_2', name: 'fs_stat', argumentsText: '{"path": "b.md' },
          { id: 'toolu_3', name: 'search', argumentsText: '' },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'toolu_1', toolName: 'read', content: '# A', isError: false },
          { toolCallId: 'toolu_2', toolName: 'fs.stat', content: 'not valid JSON', isError: true },
          { toolCallId: 'toolu_3', toolName: 'search', content: 'no hits', isError: false },
        ],
      },
    ];
    const body = await sentBody({
      messages: transcript,
      tools: providerRegistry().modelDefinitions(),
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read a.md and stat b.md' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.md' } },
          { type: 'tool_use', id: 'toolu_2', name: 'fs_stat', input: {} },
          { type: 'tool_use', id: 'toolu_3', name: 'search', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '# A', is_error: false },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: 'not valid JSON',
            is_error: true,
          },
          { type: 'tool_result', tool_use_id: 'toolu_3', content: 'no hits', is_error: false },
        ],
      },
    ]);
  });

  it('merges consecutive messages of one role so turns alternate, tool results first', async () => {
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Search for tides.' },
      { role: 'user', text: 'Then read the first hit.' },
      // Only a hosted call and no text: nothing of it can be replayed, so it disappears.
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'srvtoolu_1', name: 'web_search', argumentsText: '{}', providerNative: true },
        ],
      },
      { role: 'user', text: 'Go on.' },
      {
        role: 'assistant',
        text: 'Searching.',
        toolCalls: [{ id: 'toolu_1', name: 'search', argumentsText: '{}' }],
      },
      { role: 'assistant', text: 'And reading.', toolCalls: [] },
      { role: 'user', text: 'Also this: ' },
      {
        role: 'tool',
        results: [{ toolCallId: 'toolu_1', toolName: 'search', content: 'hit', isError: false }],
      },
      { role: 'user', text: '' },
    ];
    const body = await sentBody({ messages: transcript, tools: [] });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Search for tides.' },
          { type: 'text', text: 'Then read the first hit.' },
          { type: 'text', text: 'Go on.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'tool_use', id: 'toolu_1', name: 'search', input: {} },
          { type: 'text', text: 'And reading.' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hit', is_error: false },
          { type: 'text', text: 'Also this: ' },
        ],
      },
    ]);
  });

  it('replays an assistant message its own provider recorded verbatim, and ignores the record of another provider', async () => {
    const recorded = [
      { type: 'thinking', thinking: 'Hm.', signature: 'sig' },
      { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'tides' } },
    ];
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Search.' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'toolu_1', name: 'search', argumentsText: '{"q":"tides"}' }],
        providerContent: { provider: 'anthropic', content: recorded },
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'toolu_1', toolName: 'search', content: 'hit', isError: false }],
      },
      {
        role: 'assistant',
        text: 'Done.',
        toolCalls: [],
        providerContent: { provider: 'openai', content: [{ type: 'reasoning' }] },
      },
    ];
    const body = await sentBody({ messages: transcript, tools: [] });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Search.' }] },
      { role: 'assistant', content: recorded },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hit', is_error: false }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('honours maxRetries: a 529 is retried once before the stream starts', async () => {
    server.reply(
      {
        status: 529,
        json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        headers: { 'retry-after-ms': '1' },
      },
      { stream: messageStream([{ text: 'ok' }]) },
    );
    const model = createAnthropicModel({
      model: 'claude-wire',
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: 1,
    });
    const texts: string[] = [];
    for await (const delta of model.stream({
      messages: [{ role: 'user', text: 'Hi' }],
      tools: [],
    })) {
      if (delta.type === 'text') texts.push(delta.text);
    }
    expect(texts).toEqual(['ok']);
    expect(server.requests).toHaveLength(2);
  });
});
