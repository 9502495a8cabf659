import { createAnthropicModel } from '@switchyard/anthropic';
import { createOpenAIResponsesModel } from '@switchyard/openai';
import { createToolRegistry } from 'switchyard';
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
import { type ToolSearchEvent, toolSearch } from '../src/index.js';

const schema = ID_SCHEMA;
const tools = createToolRegistry([
  addTool,
  deferredTool('crm.lookup', 'Find a customer.', { namespace: 'crm', foreignName: true }),
  deferredTool('send_email', 'Send an email.'),
]);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function searchEvents(events: readonly { type: string }[]): ToolSearchEvent[] {
  return events.filter((event) => event.type.startsWith('tool_search_')) as ToolSearchEvent[];
}

const native = { mode: 'native' } as const;

describe('toolSearch native mode: the provider searches become tool_search_* events', () => {
  it('Anthropic: a server_tool_use and its tool_search_tool_result, then the loaded tool runs', async () => {
    const server = await startAnthropicWireServer();
    closers.push(() => server.close());
    server.reply(
      {
        stream: messageStream([
          {
            serverToolUse: {
              id: 'srvtoolu_1',
              name: 'tool_search_tool_bm25',
              jsonPieces: ['{"query": "send', ' email"}'],
            },
          },
          {
            block: {
              type: 'tool_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: {
                type: 'tool_search_tool_search_result',
                tool_references: [{ type: 'tool_reference', tool_name: 'send_email' }],
              },
            },
          },
          { toolUse: { id: 'toolu_1', name: 'send_email', jsonPieces: ['{"id":"7"}'] } },
        ]),
      },
      { stream: messageStream([{ text: 'sent' }]) },
    );
    const events: { type: string }[] = [];
    const run = await agentLoop({
      task: 'Email customer 7.',
      model: createAnthropicModel({ model: 'claude-wire', client: server.client() }),
      tools,
      toolSearch: toolSearch(native),
      onEvent: (event) => events.push(event),
    });

    expect(run.results.map((result) => [result.toolName, result.ok])).toEqual([
      ['send_email', true],
    ]);
    const common = { toolCallId: 'srvtoolu_1', strategy: 'bm25', metadata: { mode: 'native' } };
    expect(searchEvents(events)).toEqual([
      { type: 'tool_search_query', name: 'tool_search_tool_bm25', query: 'send email', ...common },
      {
        type: 'tool_search_result',
        promoted: ['send_email'],
        available: ['send_email'],
        ...common,
      },
    ]);
    // Emitted with the turn, before it is reported finished.
    const finished = events.findIndex((event) => event.type === 'turn_finished');
    expect(events.findIndex((event) => event.type === 'tool_search_result')).toBeLessThan(finished);
  });

  it('Anthropic: a failed search loads nothing; a regex search keeps its pattern', async () => {
    const server = await startAnthropicWireServer();
    closers.push(() => server.close());
    server.reply({
      stream: messageStream([
        {
          serverToolUse: {
            id: 'srvtoolu_1',
            name: 'tool_search_tool_regex',
            jsonPieces: ['{"query": "crm.*"}'],
          },
        },
        {
          block: {
            type: 'tool_search_tool_result',
            tool_use_id: 'srvtoolu_1',
            content: {
              type: 'tool_search_tool_result_error',
              error_code: 'invalid_tool_input',
              error_message: null,
            },
          },
        },
        { text: 'No luck.' },
      ]),
    });
    const events: { type: string }[] = [];
    await agentLoop({
      task: 't',
      model: createAnthropicModel({ model: 'claude-wire', client: server.client() }),
      tools,
      toolSearch: toolSearch({ variant: 'regex', mode: 'native' }),
      onEvent: (event) => events.push(event),
    });
    expect(searchEvents(events)).toEqual([
      expect.objectContaining({ type: 'tool_search_query', query: 'crm.*', strategy: 'regex' }),
      expect.objectContaining({ type: 'tool_search_result', promoted: [], available: [] }),
    ]);
  });

  it('OpenAI Responses: tool_search_call and tool_search_output, namespaced names mapped back', async () => {
    const server = await startOpenAIWireServer();
    closers.push(() => server.close());
    const loaded = {
      type: 'function',
      name: 'crm_lookup',
      description: 'Find a customer.',
      parameters: schema,
      strict: false,
      defer_loading: true,
    };
    server.reply(
      RESPONSES_PATH,
      {
        sse: responsesToolCallStream(
          [{ itemId: 'fc_1', id: 'call_1', name: 'crm_lookup', arguments: ['{"id":"7"}'] }],
          {
            hosted: [
              {
                type: 'tool_search_call',
                id: 'tsc_1',
                call_id: 'call_ts',
                execution: 'server',
                status: 'completed',
                arguments: { query: 'customer' },
              },
              {
                type: 'tool_search_output',
                id: 'tso_1',
                call_id: 'call_ts',
                execution: 'server',
                status: 'completed',
                tools: [{ type: 'namespace', name: 'crm', description: 'CRM', tools: [loaded] }],
              },
            ],
          },
        ),
      },
      { sse: responsesToolCallStream([], { text: 'found' }) },
    );
    const events: { type: string }[] = [];
    const run = await agentLoop({
      task: 'Look up customer 7.',
      model: createOpenAIResponsesModel({ model: 'gpt-wire', client: server.client() }),
      tools,
      toolSearch: toolSearch(native),
      onEvent: (event) => events.push(event),
    });

    expect(run.results.map((result) => [result.toolName, result.ok])).toEqual([
      ['crm.lookup', true],
    ]);
    const common = { toolCallId: 'call_ts', strategy: 'bm25', metadata: { mode: 'native' } };
    expect(searchEvents(events)).toEqual([
      { type: 'tool_search_query', name: 'tool_search', query: 'customer', ...common },
      {
        type: 'tool_search_result',
        promoted: ['crm.lookup'],
        available: ['crm.lookup'],
        ...common,
      },
    ]);
  });

  it('gives native and client events the same keys, mode aside', async () => {
    const events: { type: string }[] = [];
    await agentLoop({
      task: 't',
      model: createScriptedModel({
        turns: [
          { toolCalls: [{ id: 's1', name: 'tool_search', arguments: { query: 'send email' } }] },
          { text: 'done' },
        ],
      }),
      tools,
      toolSearch: toolSearch({ mode: 'client' }),
      onEvent: (event) => events.push(event),
    });
    const client = searchEvents(events);
    expect(client.map((event) => event.metadata.mode)).toEqual(['client', 'client']);
    expect(client.map((event) => Object.keys(event).sort())).toEqual([
      ['metadata', 'name', 'query', 'strategy', 'toolCallId', 'type'],
      ['available', 'metadata', 'promoted', 'strategy', 'toolCallId', 'type'],
    ]);
  });
});

describe('toolSearch mode auto', () => {
  it('searches natively where the provider can, and in the loop when budgetTokens needs it', async () => {
    const server = await startAnthropicWireServer();
    closers.push(() => server.close());
    server.reply(
      { stream: messageStream([{ text: 'ok' }]) },
      { stream: messageStream([{ text: 'ok' }]) },
    );
    const model = createAnthropicModel({ model: 'claude-wire', client: server.client() });
    await agentLoop({ task: 't', model, tools, toolSearch: toolSearch() });
    await agentLoop({ task: 't', model, tools, toolSearch: toolSearch({ budgetTokens: 500 }) });
    const names = server.requests.map((request) =>
      (request.body.tools as { name: string }[]).map((tool) => tool.name),
    );
    expect(names[0]).toEqual(['add', 'crm_lookup', 'send_email', 'tool_search_tool_bm25']);
    expect(names[1]).toEqual(['add', 'tool_search']);
  });
});
