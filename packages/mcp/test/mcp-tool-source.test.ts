import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolSearch } from '@switchyard/vault';
import {
  type AgentEvent,
  agentLoop,
  createToolRegistry,
  defineTool,
  InvalidOptionError,
  ToolDefinitionError,
} from 'switchyard';
import { withAuditLog } from 'switchyard/middleware';
import type { ToolCallReceipt } from 'switchyard/receipts';
import { createScriptedModel } from 'switchyard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, referenceServer } from '../../../test/support/mcp-reference-servers.js';
import { addTool } from '../../../test/support/tools.js';
import { McpConnectError, type McpServerConfig, mcpToolSource } from '../src/index.js';

const changingServer = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));
const tools = createToolRegistry([addTool]);

/** Child processes of this process running `script` (the servers the loop spawned). */
function serversRunning(script: string): number[] {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    });
  } catch {
    return []; // ps exits 1 when there is no child at all
  }
  return listing
    .split('\n')
    .filter((line) => line.includes(script))
    .map((line) => Number.parseInt(line.trim(), 10));
}

describe('agentLoop({ toolSource: mcpToolSource(servers) })', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'switchyard-agent-mcp-'));
    writeFileSync(join(root, 'notes.txt'), 'MCP tools join the loop\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const filesystem = (): McpServerConfig => ({
    name: 'fs',
    transport: 'stdio',
    command: process.execPath,
    args: [referenceServer('server-filesystem'), root],
  });

  it('offers the servers’ tools beside local ones and runs a call end to end with a receipt', async () => {
    const receipts: ToolCallReceipt[] = [];
    const seen: number[][] = [];
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'r1', name: 'fs__read_text_file', arguments: { path: join(root, 'notes.txt') } },
            { id: 'a1', name: 'add', arguments: { a: 2, b: 3 } },
          ],
        },
        { text: 'The notes say MCP tools join the loop; 2 + 3 = 5.' },
      ],
    });
    const run = await agentLoop({
      task: 'read the notes and add',
      model,
      tools,
      toolSource: mcpToolSource([filesystem(), everythingServer()]),
      toolCaller: withAuditLog({ sink: (receipt) => void receipts.push(receipt) }),
      onEvent: (event) => {
        if (event.type === 'turn_started') seen.push(serversRunning('server-filesystem'));
      },
    });
    expect(run.status).toBe('completed');
    const offered = model.requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(offered).toContain('add');
    expect(offered).toContain('fs__read_text_file');
    expect(offered).toContain('everything__echo');
    expect(run.results.map((result) => [result.toolCallId, result.ok, result.executor])).toEqual([
      ['r1', true, 'mcp_server'],
      ['a1', true, 'inline'],
    ]);
    expect(run.results[0]?.renderedResult).toContain('MCP tools join the loop');
    expect(
      receipts.map((receipt) => [receipt.tool_name, receipt.executor, receipt.status]).sort(),
    ).toEqual([
      ['add', 'inline', 'ok'],
      ['fs__read_text_file', 'mcp_server', 'ok'],
    ]);
    expect(
      receipts.find((receipt) => receipt.tool_name === 'fs__read_text_file')?.audit,
    ).toMatchObject({ executor: { kind: 'mcp_server', serverName: 'fs' } });
    // The server ran during the run and is gone after it.
    expect(seen[0]?.length).toBe(1);
    expect(serversRunning('server-filesystem')).toEqual([]);
  });

  it('lists a server again between turns after tools/list_changed', async () => {
    const events: AgentEvent[] = [];
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'changing__add_tool', arguments: {} }] },
        { toolCalls: [{ id: 'c2', name: 'changing__extra', arguments: { word: 'hello' } }] },
        { text: 'done' },
      ],
    });
    const run = await agentLoop({
      task: 'grow the tools',
      model,
      tools,
      toolSource: mcpToolSource([
        { name: 'changing', transport: 'stdio', command: process.execPath, args: [changingServer] },
      ]),
      onEvent: (event) => events.push(event),
    });
    expect(run.status).toBe('completed');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'add',
      'changing__add_tool',
    ]);
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual([
      'add',
      'changing__add_tool',
      'changing__extra',
    ]);
    expect(run.results.map((result) => [result.toolCallId, result.renderedResult])).toEqual([
      ['c1', 'added'],
      ['c2', 'extra hello'],
    ]);
    expect(events.filter((event) => event.type === 'tools_refreshed')).toEqual([
      {
        type: 'tools_refreshed',
        iteration: 1,
        tools: ['changing__add_tool', 'changing__extra'],
      },
    ]);
    expect(serversRunning('changing-server')).toEqual([]);
  });

  it('keeps tool search across a refresh: promotions survive, new MCP tools show', async () => {
    const hidden = defineTool({ ...addTool, name: 'hidden_add', deferLoading: true });
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 's1', name: 'tool_search', arguments: { query: 'hidden_add' } },
            { id: 'c1', name: 'changing__add_tool', arguments: {} },
          ],
        },
        { toolCalls: [{ id: 'c2', name: 'changing__extra', arguments: { word: 'again' } }] },
        { text: 'done' },
      ],
    });
    const run = await agentLoop({
      task: 'grow the tools',
      model,
      tools: createToolRegistry([addTool, hidden]),
      toolSearch: toolSearch(),
      toolSource: mcpToolSource([
        { name: 'changing', transport: 'stdio', command: process.execPath, args: [changingServer] },
      ]),
    });
    expect(run.status).toBe('completed');
    const offered = (turn: number) => model.requests[turn]?.tools.map((tool) => tool.name) ?? [];
    expect(offered(0)).toEqual(['add', 'changing__add_tool', 'tool_search']);
    // The promotion made before the refresh survives it (it lives in the session).
    expect(offered(1)).toEqual([
      'add',
      'hidden_add',
      'changing__add_tool',
      'changing__extra',
      'tool_search',
    ]);
    expect(run.results[2]).toMatchObject({ ok: true, renderedResult: 'extra again' });
  });

  it('closes the servers when the run fails or is cancelled', async () => {
    const failing = createScriptedModel({
      turns: [{ text: 'x', failAfter: { deltas: 0, error: new Error('model down') } }],
    });
    const failed = await agentLoop({
      task: 't',
      model: failing,
      tools,
      maxModelRetries: 0,
      toolSource: mcpToolSource([everythingServer()]),
    });
    expect(failed.status).toBe('failed');
    expect(serversRunning('server-everything')).toEqual([]);

    const controller = new AbortController();
    controller.abort();
    const cancelled = await agentLoop({
      task: 't',
      model: createScriptedModel({ turns: [{ text: 'never' }] }),
      tools,
      signal: controller.signal,
      toolSource: mcpToolSource([everythingServer()]),
    });
    expect(cancelled.status).toBe('cancelled');
    expect(serversRunning('server-everything')).toEqual([]);
  });

  it('rejects a bad entry, an unreachable server and a name clash, leaving no server behind', async () => {
    const model = createScriptedModel({ turns: [{ text: 'never' }] });
    expect(() => mcpToolSource([{ name: 'a__b', transport: 'stdio', command: 'x' }])).toThrow(
      expect.objectContaining({ code: InvalidOptionError.CODE, option: 'servers[0].name' }),
    );
    expect(() => mcpToolSource({} as never)).toThrow(
      expect.objectContaining({ option: 'servers' }),
    );
    await expect(
      agentLoop({ task: 't', model, tools, toolSource: {} as never }),
    ).rejects.toMatchObject({ option: 'toolSource' });
    await expect(
      agentLoop({
        task: 't',
        model,
        tools,
        toolSource: mcpToolSource([
          { name: 'gone', transport: 'stdio', command: process.execPath, args: ['-e', ''] },
        ]),
      }),
    ).rejects.toBeInstanceOf(McpConnectError);
    const clashing = createToolRegistry([{ ...addTool, name: 'everything__echo' }]);
    await expect(
      agentLoop({
        task: 't',
        model,
        tools: clashing,
        toolSource: mcpToolSource([everythingServer()]),
      }),
    ).rejects.toBeInstanceOf(ToolDefinitionError);
    expect(serversRunning('server-everything')).toEqual([]);
    expect(model.requests).toEqual([]);
  });
});
