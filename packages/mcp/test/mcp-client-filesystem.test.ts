import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDispatcher,
  createToolRegistry,
  type Dispatcher,
  defineTool,
  ToolDefinitionError,
} from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServer } from '../../../test/support/mcp-reference-servers.js';
import { connectMcpServers, type McpClients } from '../src/index.js';

const LONG = 'filesystem_server_with_a_rather_long_name_for_tests';

describe('MCP client against the filesystem reference server (stdio)', () => {
  let mcp: McpClients;
  let dispatcher: Dispatcher;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(process.env.SWITCHYARD_TEST_TMP ?? '/tmp', 'mcp-fs-'));
    const server = {
      transport: 'stdio',
      command: process.execPath,
      args: [referenceServer('server-filesystem'), root],
    } as const;
    mcp = await connectMcpServers([
      { ...server, name: 'fs', trusted: true },
      { ...server, name: LONG },
    ]);
    dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
  });
  afterAll(() => mcp.close());

  it('maps a trusted server annotations onto safety, and keeps an untrusted one fail-closed', () => {
    expect(mcp.registry.get('fs__read_text_file')?.safety).toMatchObject({
      readOnly: true,
      openWorld: false,
    });
    expect(mcp.registry.get('fs__write_file')?.safety).toMatchObject({
      readOnly: false,
      destructive: true,
      idempotent: true,
    });
    expect(mcp.registry.get(`${LONG}__read_text_file`)?.safety).toMatchObject({
      readOnly: false,
      idempotent: false,
      sideEffectLevel: 'network',
    });
  });

  it('writes and reads a file, with the structured content as the value', async () => {
    const path = join(root, 'note.txt');
    const write = await dispatcher.dispatch({
      id: 'w1',
      name: 'fs__write_file',
      arguments: JSON.stringify({ path, content: 'hello from switchyard' }),
    });
    expect(write.ok).toBe(true);
    const read = await dispatcher.dispatch({
      id: 'r1',
      name: 'fs__read_text_file',
      arguments: JSON.stringify({ path }),
    });
    expect(read).toMatchObject({ ok: true, result: { content: 'hello from switchyard' } });
  });

  it('turns isError into a tool error the model can read', async () => {
    const result = await dispatcher.dispatch({
      id: 'e1',
      name: 'fs__read_text_file',
      arguments: JSON.stringify({ path: '/etc/hostname' }),
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      executor: 'mcp_server',
    });
    expect(result.observation).toMatch(/denied|outside/i);
  });

  it('gives long names a reversible provider-safe alias', async () => {
    const canonical = `${LONG}__list_allowed_directories`;
    const definition = mcp.registry
      .modelDefinitions()
      .find((tool) => tool.canonicalName === canonical);
    expect(definition?.name.length).toBeLessThanOrEqual(64);
    expect(definition?.name).not.toBe(canonical);
    const result = await dispatcher.dispatch({
      id: 'a1',
      name: definition?.name ?? '',
      arguments: '{}',
    });
    expect(result).toMatchObject({ ok: true, toolName: canonical });
    expect(result.renderedResult).toContain(root);
  });

  it('refuses to merge tools whose names clash with the base registry', () => {
    const local = defineTool({
      name: 'fs__list_directory',
      description: 'a local tool with a clashing name',
      inputSchema: { type: 'object' },
      handler: () => 'local',
    });
    expect(() => mcp.addTo(createToolRegistry([local]))).toThrow(ToolDefinitionError);
    const merged = mcp.addTo(createToolRegistry([defineTool({ ...local, name: 'local_tool' })]));
    expect(merged.has('local_tool') && merged.has('fs__list_directory')).toBe(true);
  });
});
