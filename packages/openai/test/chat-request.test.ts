import type { TranscriptMessage } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatToolCallStream,
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import {
  createOpenAIChatModel,
  toChatMessages,
  toChatToolMessages,
  toChatTools,
} from '../src/index.js';
import { collect, openAITestRegistry, toolResult } from './support.js';

const registry = openAITestRegistry();
const pathParameters = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
};

/** A conversation with one round of calls: a broken one, a valid one and a hosted one. */
const transcript: TranscriptMessage[] = [
  { role: 'user', text: 'Stat b.md' },
  {
    role: 'assistant',
    text: '',
    toolCalls: [
      { id: 'call_a', name: 'fs_stat', argumentsText: '{"path": "b.md"' },
      { id: 'call_b', name: 'read', argumentsText: '{"path":"b.md"}' },
      { id: 'ws_1', name: 'web_search_call', argumentsText: '{}', providerNative: true },
    ],
  },
  {
    role: 'tool',
    results: [
      {
        toolCallId: 'call_a',
        toolName: 'fs.stat',
        content: 'not valid JSON; send again',
        isError: true,
      },
      { toolCallId: 'call_b', toolName: 'read', content: '# B', isError: false },
    ],
  },
  { role: 'assistant', text: 'b.md is a heading.', toolCalls: [] },
  { role: 'user', text: 'Thanks' },
];

describe('the Chat Completions request', () => {
  let server: OpenAIWireServer;
  beforeEach(async () => {
    server = await startOpenAIWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends the tools under their provider-safe names and replays the transcript', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([], { finish: 'stop' }) });
    const model = createOpenAIChatModel({ model: 'fake-model', client: server.client() });

    await collect(
      model.stream({
        system: 'Be brief.',
        messages: transcript,
        tools: registry.modelDefinitions(),
      }),
    );
    const sent = await server.nextRequest();

    expect(sent.method).toBe('POST');
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toEqual({
      model: 'fake-model',
      stream: true,
      stream_options: { include_usage: true },
      tools: ['read', 'write', 'fs_stat'].map((name) => ({
        type: 'function',
        function: {
          name,
          description: `${name === 'fs_stat' ? 'fs.stat' : name} a file`,
          parameters: pathParameters,
        },
      })),
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Stat b.md' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'fs_stat', arguments: '{"path": "b.md"' },
            },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'read', arguments: '{"path":"b.md"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'not valid JSON; send again' },
        { role: 'tool', tool_call_id: 'call_b', content: '# B' },
        { role: 'assistant', content: 'b.md is a heading.' },
        { role: 'user', content: 'Thanks' },
      ],
    });
  });

  it('sends the sampling options, and extraBody without letting it override the adapter', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([], { finish: 'stop' }) });
    const model = createOpenAIChatModel({
      model: 'fake-model',
      client: server.client(),
      temperature: 0.2,
      maxOutputTokens: 512,
      parallelToolCalls: false,
      extraBody: { tool_choice: 'required', stream: false, model: 'other', user: 'u1' },
    });

    await collect(
      model.stream({
        messages: [{ role: 'user', text: 'Hi' }],
        tools: registry.modelDefinitions(),
      }),
    );
    const { body } = await server.nextRequest();

    expect(body).toMatchObject({
      model: 'fake-model',
      stream: true,
      temperature: 0.2,
      max_completion_tokens: 512,
      parallel_tool_calls: false,
      tool_choice: 'required',
      user: 'u1',
    });
  });

  it('leaves out tools and parallel_tool_calls when no tools are offered', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([], { finish: 'stop' }) });
    const model = createOpenAIChatModel({
      model: 'fake-model',
      client: server.client(),
      parallelToolCalls: true,
    });

    await collect(model.stream({ messages: [{ role: 'user', text: 'Hi' }], tools: [] }));
    const { body } = await server.nextRequest();

    expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'stream', 'stream_options']);
  });

  it('builds its own client from apiKey and baseURL, and applies maxRetries per request', async () => {
    server.reply(CHAT_PATH, {
      status: 500,
      json: { error: { message: 'boom', type: 'server_error' } },
      // The SDK waits this long before its retry instead of its default backoff.
      headers: { 'retry-after-ms': '1' },
    });
    server.reply(CHAT_PATH, { sse: chatToolCallStream([], { finish: 'stop' }) });
    const model = createOpenAIChatModel({
      model: 'fake-model',
      apiKey: 'sk-own',
      baseURL: server.baseURL,
      maxRetries: 1,
    });

    const deltas = await collect(model.stream({ messages: [], tools: [] }));

    expect(deltas).toContainEqual({ type: 'finish', reason: 'stop', safe: true });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer sk-own',
      'Bearer sk-own',
    ]);
  });
});

describe('the Chat Completions converters', () => {
  it('maps tool definitions to function tools', () => {
    expect(toChatTools(registry.modelDefinitions().slice(2))).toEqual([
      {
        type: 'function',
        function: { name: 'fs_stat', description: 'fs.stat a file', parameters: pathParameters },
      },
    ]);
  });

  it('keeps assistant text next to tool calls, and sends no system message when there is none', () => {
    expect(
      toChatMessages(undefined, [
        {
          role: 'assistant',
          text: 'Reading.',
          toolCalls: [{ id: 'c1', name: 'read', argumentsText: '{}' }],
        },
      ]),
    ).toEqual([
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
    ]);
  });

  it('sends an assistant turn that only called hosted tools as its text', () => {
    expect(
      toChatMessages('', [
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 'ws', name: 'web_search_call', argumentsText: '{}', providerNative: true },
          ],
        },
      ]),
    ).toEqual([{ role: 'assistant', content: '' }]);
  });

  it('answers results with tool messages carrying the observation, skipping provider-native ones', () => {
    const results = [
      toolResult({ toolCallId: 'call_b', observation: '# B', executor: 'inline' }),
      toolResult({ toolCallId: 'ws_1', observation: 'searched', executor: 'provider_native' }),
      toolResult({
        toolCallId: 'call_c',
        observation: '[error] no such file',
        ok: false,
        executor: null,
      }),
    ];

    expect(toChatToolMessages(results)).toEqual([
      { role: 'tool', tool_call_id: 'call_b', content: '# B' },
      { role: 'tool', tool_call_id: 'call_c', content: '[error] no such file' },
    ]);
  });
});
