import type { ModelRequest } from 'switchyard/providers';
import { describe, expect, it } from 'vitest';
import { messageStream } from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { sentBody } from './request-fixture.js';
import { providerRegistry } from './support.js';
import { server } from './wire-server-fixture.js';

const PATH_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
};

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
