import {
  createToolRegistry,
  defineTool,
  InvalidOptionError,
  ToolDefinitionError,
} from 'switchyard';
import type { AgentEvent } from 'switchyard/agent';
import { agentLoop } from 'switchyard/agent';
import type { ModelRequest, ToolResultsMessage } from 'switchyard/providers';
import { createScriptedModel } from 'switchyard/testing';
import { describe, expect, it } from 'vitest';
import { addTool } from '../../../test/support/tools.js';
import { toolSearch } from '../src/index.js';

const readCalls: unknown[] = [];
const deferred = [
  defineTool<{ path: string }, string>({
    name: 'read_file',
    description: 'Read a text file from the workspace and return its contents.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    safety: { readOnly: true },
    deferLoading: true,
    handler: ({ path }) => {
      readCalls.push(path);
      return `contents of ${path}`;
    },
  }),
  ...['send_email', 'get_weather', 'create_invoice', 'list_calendar_events'].map((name) =>
    defineTool({
      name,
      description: `${name.replaceAll('_', ' ')} for the user. ${'Detailed documentation. '.repeat(20)}`,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      deferLoading: true,
      handler: () => name,
    }),
  ),
];
const tools = createToolRegistry([addTool, ...deferred]);

const offered = (request: ModelRequest) => request.tools.map((tool) => tool.name);
const lastResults = (request: ModelRequest) =>
  (
    request.messages.findLast((message) => message.role === 'tool') as
      | ToolResultsMessage
      | undefined
  )?.results ?? [];

/** A model that searches, then calls the first tool the search loaded, then answers. */
function searchingModel(query: string, searchTool = 'tool_search') {
  return createScriptedModel({
    turns: [
      { toolCalls: [{ id: 's1', name: searchTool, arguments: { query } }] },
      (request) => {
        const found = JSON.parse(lastResults(request)[0]?.content ?? '{}') as {
          tool_names?: string[];
        };
        const pick = found.tool_names?.[0] ?? 'none';
        return offered(request).includes(pick)
          ? { toolCalls: [{ id: 'r1', name: pick, arguments: { path: 'notes.txt' } }] }
          : { text: `cannot see ${pick}` };
      },
      (request) => ({ text: `Done: ${lastResults(request)[0]?.content}` }),
    ],
  });
}

describe('agentLoop toolSearch (client mode)', () => {
  it('finds a deferred tool, promotes it into the next turn, and calls it', async () => {
    readCalls.length = 0;
    const events: AgentEvent[] = [];
    const model = searchingModel('read a file');
    const run = await agentLoop({
      task: 'show notes.txt',
      model,
      tools,
      toolSearch: toolSearch(),
      onEvent: (e) => events.push(e),
    });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('Done: contents of notes.txt');
    expect(readCalls).toEqual(['notes.txt']);
    expect(offered(model.requests[0] as ModelRequest)).toEqual(['add', 'tool_search']);
    expect(offered(model.requests[1] as ModelRequest)).toEqual(['add', 'read_file', 'tool_search']);
    const search = events.filter(
      (e) => e.type === 'tool_search_query' || e.type === 'tool_search_result',
    );
    expect(search).toEqual([
      {
        type: 'tool_search_query',
        toolCallId: 's1',
        name: 'tool_search',
        query: 'read a file',
        strategy: 'bm25',
        metadata: { mode: 'client' },
      },
      expect.objectContaining({
        type: 'tool_search_result',
        toolCallId: 's1',
        strategy: 'bm25',
        metadata: { mode: 'client' },
      }),
    ]);
    const result = search[1] as { promoted: readonly string[]; available: readonly string[] };
    expect(result.promoted[0]).toBe('read_file');
    expect(result.available).toEqual(result.promoted);
  });

  it('promotes MCP-style tools and answers with the names the model calls', async () => {
    const issues = defineTool({
      name: 'github.search_issues',
      foreignName: true,
      description: 'Search the issues of a GitHub repository.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      deferLoading: true,
      namespace: 'github',
      handler: () => 'issue 7',
    });
    const model = searchingModel('search github issues');
    const run = await agentLoop({
      task: 't',
      model,
      tools: createToolRegistry([addTool, issues]),
      toolSearch: toolSearch(),
    });
    expect(offered(model.requests[1] as ModelRequest)).toEqual([
      'add',
      'github_search_issues',
      'tool_search',
    ]);
    expect(run.results.map((result) => [result.toolName, result.result])).toEqual([
      ['tool_search', expect.objectContaining({ tool_names: ['github_search_issues'] })],
      ['github.search_issues', 'issue 7'],
    ]);
  });

  it('keeps unpromoted deferred tools uncallable', async () => {
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ id: 'x', name: 'read_file', arguments: { path: 'a' } }] },
        { text: 'ok' },
      ],
    });
    const run = await agentLoop({ task: 't', model, tools, toolSearch: toolSearch('bm25') });
    expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([['x', 'tool_not_found']]);
  });

  it('runs a custom strategy and a renamed search tool, passing what is already promoted', async () => {
    const states: unknown[] = [];
    const model = searchingModel('anything', 'find_tool');
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      toolSearch: toolSearch({
        name: 'find_tool',
        variant: {
          name: 'always-read',
          handler: (_q, found, state) => {
            states.push([found.length, state]);
            return ['read_file'];
          },
        },
      }),
    });
    expect(run.text).toBe('Done: contents of notes.txt');
    expect(states).toEqual([[5, { variant: 'always-read', limit: 5, promoted: [] }]]);
    expect(offered(model.requests[0] as ModelRequest)).toContain('find_tool');
  });

  it('evicts the oldest promoted tools to stay within budgetTokens', async () => {
    const events: AgentEvent[] = [];
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ id: 'a', name: 'tool_search', arguments: { query: 'send email' } }] },
        { toolCalls: [{ id: 'b', name: 'tool_search', arguments: { query: 'weather' } }] },
        { text: 'ok' },
      ],
    });
    await agentLoop({
      task: 't',
      model,
      tools,
      toolSearch: toolSearch({ limit: 1, budgetTokens: 200 }),
      onEvent: (e) => events.push(e),
    });
    expect(offered(model.requests[1] as ModelRequest)).toEqual([
      'add',
      'send_email',
      'tool_search',
    ]);
    expect(offered(model.requests[2] as ModelRequest)).toEqual([
      'add',
      'get_weather',
      'tool_search',
    ]);
    const last = events.findLast((e) => e.type === 'tool_search_result') as {
      available: readonly string[];
    };
    expect(last.available).toEqual(['get_weather']);
  });

  it('does not promote a tool larger than the whole budget', async () => {
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ name: 'tool_search', arguments: { query: 'send email' } }] },
        { text: 'ok' },
      ],
    });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      toolSearch: toolSearch({ limit: 1, budgetTokens: 10 }),
    });
    expect(offered(model.requests[1] as ModelRequest)).toEqual(['add', 'tool_search']);
    expect(
      JSON.parse(
        String(run.transcript[2]?.role === 'tool' ? run.transcript[2].results[0]?.content : ''),
      ),
    ).toMatchObject({
      tool_names: [],
      note: 'some matches did not fit the tool budget',
    });
  });

  it('pins alwaysLoaded tools and lists the deferred ones in the system prompt', async () => {
    const model = createScriptedModel({ turns: [{ text: 'hi' }] });
    await agentLoop({
      task: 't',
      system: 'Be brief.',
      model,
      tools,
      toolSearch: toolSearch({ alwaysLoaded: ['read_file'], includeStubListing: true }),
    });
    const request = model.requests[0] as ModelRequest;
    expect(offered(request)).toEqual(['add', 'read_file', 'tool_search']);
    expect(request.system).toMatch(
      /^Be brief\.\n\nThese tools are not loaded yet; call tool_search/,
    );
    expect(request.system).toContain('- send_email: send email for the user.');
    expect(request.system).not.toContain('- read_file');
  });

  it('leaves the system prompt alone without includeStubListing', async () => {
    const model = createScriptedModel({ turns: [{ text: 'hi' }] });
    await agentLoop({ task: 't', system: 'Be brief.', model, tools, toolSearch: toolSearch() });
    expect(model.requests[0]?.system).toBe('Be brief.');
  });

  it('fails before any request when every tool is deferred, or an option is wrong', async () => {
    const model = createScriptedModel({ turns: [{ text: 'hi' }] });
    const allDeferred = createToolRegistry(deferred);
    await expect(
      agentLoop({ task: 't', model, tools: allDeferred, toolSearch: toolSearch() }),
    ).rejects.toThrow(/at least one tool must be non-deferred/);
    await expect(
      agentLoop({ task: 't', model, tools, toolSearch: toolSearch({ mode: 'native' }) }),
    ).rejects.toThrow(InvalidOptionError);
    await expect(
      agentLoop({ task: 't', model, tools, toolSearch: toolSearch({ name: 'add' }) }),
    ).rejects.toThrow(/already a tool's name/);
    await expect(
      agentLoop({ task: 't', model, tools, toolSearch: toolSearch({ alwaysLoaded: ['nope'] }) }),
    ).rejects.toThrow(/names no tool/);
    await expect(
      agentLoop({ task: 't', model, tools, toolSearch: { variant: 'bm25' } as never }),
    ).rejects.toThrow(/toolSearch must be a hook/);
    expect(model.requests).toHaveLength(0);
    expect(() => toolSearch({ budgetTokens: 0 })).toThrow(/toolSearch.budgetTokens/);
    expect(() => toolSearch({ limit: 0 })).toThrow(/toolSearch.limit/);
    expect(() => toolSearch({ mode: 'remote' as never })).toThrow(/toolSearch.mode/);
    expect(() => toolSearch({ name: 'has space' })).toThrow(/toolSearch.name/);
    expect(() => toolSearch({ alwaysLoaded: 'read_file' as never })).toThrow(/alwaysLoaded/);
    expect(() => toolSearch({ includeStubListing: 'yes' as never })).toThrow(/includeStubListing/);
    expect(() => toolSearch('fuzzy' as never)).toThrow(/toolSearch.variant/);
    expect(() => toolSearch(false)).toThrow(InvalidOptionError);
  });

  it('rejects a deferLoading that is not a boolean when the tool is defined', () => {
    expect(() =>
      defineTool({
        name: 'x',
        description: '',
        inputSchema: { type: 'object' },
        deferLoading: 'yes' as never,
        handler: () => 1,
      }),
    ).toThrow(ToolDefinitionError);
  });
});
