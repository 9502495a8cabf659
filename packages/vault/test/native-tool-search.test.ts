import type { Anthropic } from '@anthropic-ai/sdk';
import { createAnthropicModel } from '@switchyard/anthropic';
import { createOpenAIResponsesModel } from '@switchyard/openai';
import type { Tool } from 'openai/resources/responses/responses';
import { createToolRegistry, InvalidOptionError } from 'switchyard';
import { agentLoop } from 'switchyard/agent';
import { createScriptedModel } from 'switchyard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  messageStream,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import { deferredTool, ID_SCHEMA } from '../../../test/support/deferred-tools.js';
import {
  RESPONSES_PATH,
  responsesToolCallStream,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { addTool } from '../../../test/support/tools.js';
import { toolSearch } from '../src/index.js';

const schema = ID_SCHEMA;
const tools = createToolRegistry([
  addTool,
  deferredTool('crm_lookup', 'Find a customer.', { namespace: 'crm' }),
  deferredTool('crm_update', 'Update a customer.', { namespace: 'crm' }),
  deferredTool('send_email', 'Send an email.'),
]);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('toolSearch native mode: the requests sent', () => {
  it('Anthropic: deferred tools with defer_loading, then the bm25 or regex search tool', async () => {
    const server = await startAnthropicWireServer();
    closers.push(() => server.close());
    for (const variant of ['bm25', 'regex'] as const) {
      server.reply({ stream: messageStream([{ text: 'ok' }]) });
      const model = createAnthropicModel({ model: 'claude-wire', client: server.client() });
      const run = await agentLoop({
        task: 't',
        model,
        tools,
        toolSearch: toolSearch({ variant, mode: 'native' }),
      });
      expect(run.status).toBe('completed');
    }
    const [bm25, regex] = server.requests.map(
      (request) => request.body.tools as Anthropic.Messages.ToolUnion[],
    );
    expect(bm25).toEqual([
      { name: 'add', description: expect.any(String), input_schema: expect.any(Object) },
      {
        name: 'crm_lookup',
        description: 'Find a customer.',
        input_schema: schema,
        defer_loading: true,
      },
      {
        name: 'crm_update',
        description: 'Update a customer.',
        input_schema: schema,
        defer_loading: true,
      },
      {
        name: 'send_email',
        description: 'Send an email.',
        input_schema: schema,
        defer_loading: true,
      },
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
    expect(regex?.at(-1)).toEqual({
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
    });
  });

  it('OpenAI Responses: tool_search first, deferred functions loose or in their namespace', async () => {
    const server = await startOpenAIWireServer();
    closers.push(() => server.close());
    server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([], { text: 'ok' }) });
    const model = createOpenAIResponsesModel({ model: 'gpt-wire', client: server.client() });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      toolSearch: toolSearch({ mode: 'native' }),
    });
    expect(run.status).toBe('completed');
    const sent = server.requests[0]?.body.tools as Tool[];
    const deferred = (name: string, description: string) => ({
      type: 'function',
      name,
      description,
      parameters: schema,
      strict: false,
      defer_loading: true,
    });
    expect(sent).toEqual([
      { type: 'tool_search' },
      deferred('send_email', 'Send an email.'),
      {
        type: 'namespace',
        name: 'crm',
        description: 'Tools of crm.',
        tools: [
          deferred('crm_lookup', 'Find a customer.'),
          deferred('crm_update', 'Update a customer.'),
        ],
      },
      expect.objectContaining({ type: 'function', name: 'add' }),
    ]);
  });

  it('lets a deferred tool the provider loaded be called in the same run', async () => {
    const server = await startAnthropicWireServer();
    closers.push(() => server.close());
    server.reply({
      stream: messageStream([
        { toolUse: { id: 'toolu_1', name: 'send_email', jsonPieces: ['{"id":"7"}'] } },
      ]),
    });
    server.reply({ stream: messageStream([{ text: 'sent' }]) });
    const model = createAnthropicModel({ model: 'claude-wire', client: server.client() });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      toolSearch: toolSearch({ mode: 'native' }),
    });
    expect(run.results.map((result) => [result.toolName, result.ok])).toEqual([
      ['send_email', true],
    ]);
  });

  it('refuses native mode where the provider or the variant has none', async () => {
    const scripted = createScriptedModel({ turns: [{ text: 'hi' }] });
    await expect(
      agentLoop({ task: 't', model: scripted, tools, toolSearch: toolSearch({ mode: 'native' }) }),
    ).rejects.toThrow(InvalidOptionError);
    const openai = createOpenAIResponsesModel({ model: 'gpt', apiKey: 'k' });
    await expect(
      agentLoop({
        task: 't',
        model: openai,
        tools,
        toolSearch: toolSearch({ mode: 'native', variant: 'hybrid' }),
      }),
    ).rejects.toThrow(/runs the hybrid variant itself/);
  });
});
