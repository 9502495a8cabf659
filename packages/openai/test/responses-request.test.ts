import type { TranscriptMessage } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type OpenAIWireServer,
  RESPONSES_PATH,
  responsesToolCallStream,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import {
  createOpenAIResponsesModel,
  toResponsesFunctionOutputs,
  toResponsesInput,
  toResponsesTools,
} from '../src/index.js';
import { collect, openAITestRegistry, toolResult } from './support.js';

const registry = openAITestRegistry();
const pathParameters = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
};

const transcript: TranscriptMessage[] = [
  { role: 'user', text: 'Stat b.md' },
  {
    role: 'assistant',
    text: 'Checking.',
    toolCalls: [
      {
        id: 'ws_1',
        name: 'web_search_call',
        argumentsText: '{"type":"web_search_call"}',
        providerNative: true,
      },
      { id: 'call_a', name: 'fs_stat', argumentsText: '{"path": "b.md"' },
      { id: 'call_b', name: 'read', argumentsText: '{"path":"b.md"}' },
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
];

describe('the Responses request', () => {
  let server: OpenAIWireServer;
  beforeEach(async () => {
    server = await startOpenAIWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends flat function tools under provider-safe names, hosted tools, instructions and input items', async () => {
    server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([]) });
    const model = createOpenAIResponsesModel({
      model: 'fake-model',
      client: server.client(),
      hostedTools: [{ type: 'web_search' }],
    });

    await collect(
      model.stream({
        system: 'Be brief.',
        messages: transcript,
        tools: registry.modelDefinitions(),
      }),
    );
    const sent = await server.nextRequest();

    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toEqual({
      model: 'fake-model',
      stream: true,
      instructions: 'Be brief.',
      tools: [
        ...[
          ['read', 'read'],
          ['write', 'write'],
          ['fs_stat', 'fs.stat'],
        ].map(([name, canonical]) => ({
          type: 'function',
          name,
          description: `${canonical} a file`,
          parameters: pathParameters,
          strict: false,
        })),
        { type: 'web_search' },
      ],
      input: [
        { type: 'message', role: 'user', content: 'Stat b.md' },
        { type: 'message', role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'call_a', name: 'fs_stat', arguments: '{"path": "b.md"' },
        { type: 'function_call', call_id: 'call_b', name: 'read', arguments: '{"path":"b.md"}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'not valid JSON; send again' },
        { type: 'function_call_output', call_id: 'call_b', output: '# B' },
        { type: 'message', role: 'assistant', content: 'b.md is a heading.' },
      ],
    });
  });

  it('sends max_output_tokens, temperature, parallel_tool_calls and extraBody', async () => {
    server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([]) });
    const model = createOpenAIResponsesModel({
      model: 'fake-model',
      client: server.client(),
      temperature: 0,
      maxOutputTokens: 256,
      parallelToolCalls: false,
      extraBody: { store: false, input: 'ignored' },
    });

    await collect(
      model.stream({
        messages: [{ role: 'user', text: 'Hi' }],
        tools: registry.modelDefinitions(),
      }),
    );
    const { body } = await server.nextRequest();

    expect(body).toMatchObject({
      temperature: 0,
      max_output_tokens: 256,
      parallel_tool_calls: false,
      store: false,
      input: [{ type: 'message', role: 'user', content: 'Hi' }],
    });
  });

  it('sends neither tools nor instructions when there are none', async () => {
    server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([]) });
    const model = createOpenAIResponsesModel({
      model: 'fake-model',
      client: server.client(),
      parallelToolCalls: true,
    });

    await collect(model.stream({ system: '', messages: [], tools: [] }));
    const { body } = await server.nextRequest();

    expect(body).toEqual({ model: 'fake-model', input: [], stream: true });
  });
});

describe('the Responses converters', () => {
  it('maps tool definitions to flat function tools with strict false', () => {
    expect(toResponsesTools(registry.modelDefinitions().slice(0, 1))).toEqual([
      {
        type: 'function',
        name: 'read',
        description: 'read a file',
        parameters: pathParameters,
        strict: false,
      },
    ]);
  });

  it('replays the output items a Responses turn recorded, verbatim, and ignores another record', () => {
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search' } },
      { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'read', arguments: '{}' },
    ];
    const input = toResponsesInput([
      { role: 'user', text: 'Look it up.' },
      {
        role: 'assistant',
        text: 'Looking.',
        toolCalls: [{ id: 'call_a', name: 'read', argumentsText: '{}' }],
        providerContent: { provider: 'openai-responses', content: output },
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'call_a', toolName: 'read', content: 'text', isError: false }],
      },
      {
        role: 'assistant',
        text: 'Done.',
        toolCalls: [],
        providerContent: { provider: 'anthropic', content: [{ type: 'thinking' }] },
      },
    ]);

    expect(input).toEqual([
      { type: 'message', role: 'user', content: 'Look it up.' },
      ...output,
      { type: 'function_call_output', call_id: 'call_a', output: 'text' },
      { type: 'message', role: 'assistant', content: 'Done.' },
    ]);
  });

  it('leaves out the assistant message when the turn had no text', () => {
    expect(
      toResponsesInput([
        { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'read', argumentsText: '' }] },
      ]),
    ).toEqual([{ type: 'function_call', call_id: 'c1', name: 'read', arguments: '' }]);
  });

  it('answers results with function_call_output items carrying the observation, skipping provider-native ones', () => {
    const results = [
      toolResult({ toolCallId: 'call_b', observation: '# B' }),
      toolResult({ toolCallId: 'ws_1', observation: 'searched', executor: 'provider_native' }),
      toolResult({
        toolCallId: 'call_c',
        observation: '[error] denied',
        ok: false,
        executor: null,
      }),
    ];

    expect(toResponsesFunctionOutputs(results)).toEqual([
      { type: 'function_call_output', call_id: 'call_b', output: '# B' },
      { type: 'function_call_output', call_id: 'call_c', output: '[error] denied' },
    ]);
  });
});
