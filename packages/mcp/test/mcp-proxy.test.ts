import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createDispatcher, defineTool, withAuditLog } from 'switchyard';
import type { ToolCallReceipt } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import { everythingServer } from '../../../test/support/mcp-reference-servers.js';
import { connectMcpServers, createMcpServer } from '../src/index.js';
import { aborted, fixtureRegistry } from './server-fixture.js';

// The fixture's tools and one whose structured value is not an object (2026-07-28 allows any).
const withPrimes = fixtureRegistry.withTools([
  ...fixtureRegistry.list(),
  defineTool({
    name: 'primes',
    description: 'Returns an array, as its outputSchema declares',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'array', items: { type: 'integer' } },
    safety: { sideEffectLevel: 'none' },
    handler: () => [2, 3, 5],
  }),
]);

describe('both ways', () => {
  it('connects our client to our server over the 2026-07-28 revision', async () => {
    const http = await createMcpServer({ registry: withPrimes }).serveHttp();
    const mcp = await connectMcpServers([
      { name: 'ours', transport: 'http', url: http.url, protocol: '2026-07-28' },
    ]);
    try {
      expect(mcp.registry.names()).toEqual([
        'ours__add',
        'ours__boom',
        'ours__primes',
        'ours__secret',
        'ours__slow',
      ]);
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const sum = await dispatcher.dispatch({
        id: 'p1',
        name: 'ours__add',
        arguments: '{"a":1,"b":2}',
      });
      expect(sum).toMatchObject({ ok: true, result: { sum: 3 } });
      const listed = await dispatcher.dispatch({ id: 'p3', name: 'ours__primes', arguments: '{}' });
      expect(listed).toMatchObject({ ok: true, result: [2, 3, 5] });
      const failed = await dispatcher.dispatch({ id: 'p2', name: 'ours__boom', arguments: '{}' });
      expect(failed).toMatchObject({ ok: false, errorCategory: 'tool_error' });
      expect(failed.observation).toContain('failed on purpose');
    } finally {
      await mcp.close();
      await http.close();
    }
  });

  it('tells the server of each cancelled call, between calls that reuse their signals', async () => {
    const http = await createMcpServer({ registry: fixtureRegistry }).serveHttp();
    const mcp = await connectMcpServers([{ name: 'ours', transport: 'http', url: http.url }]);
    const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
    const add = (id: string) =>
      dispatcher.dispatch({ id, name: 'ours__add', arguments: '{"a":1,"b":2}' });
    const cancelSlow = async (tag: string) => {
      const controller = new AbortController();
      const subscription = dispatcher.events$.subscribe((event) => {
        if (event.type === 'tool_call_progress' && event.toolCallId === tag) controller.abort();
      });
      const result = await dispatcher.dispatch(
        { id: tag, name: 'ours__slow', arguments: JSON.stringify({ tag }) },
        { signal: controller.signal },
      );
      subscription.unsubscribe();
      return result;
    };
    try {
      expect(await add('s1')).toMatchObject({ ok: true, result: { sum: 3 } });
      expect(await add('s2')).toMatchObject({ ok: true, result: { sum: 3 } });
      expect(await cancelSlow('s3')).toMatchObject({ ok: false, status: 'cancelled' });
      await expect.poll(() => aborted.includes('s3')).toBe(true);
      // The aborted signal is not reused: the next call runs to its answer.
      expect(await add('s4')).toMatchObject({ ok: true, result: { sum: 3 } });
      expect(await cancelSlow('s5')).toMatchObject({ ok: false, status: 'cancelled' });
      await expect.poll(() => aborted.includes('s5')).toBe(true);
      expect(await add('s6')).toMatchObject({ ok: true, result: { sum: 3 } });
    } finally {
      await mcp.close();
      await http.close();
    }
  });

  it('serves another MCP server tools through our stack (proxy mode)', async () => {
    const mcp = await connectMcpServers([everythingServer()]);
    const receipts: ToolCallReceipt[] = [];
    const proxy = createMcpServer({
      registry: mcp.registry,
      caller: withAuditLog({ sink: (receipt) => void receipts.push(receipt) }),
      dispatcher: { executors: [mcp.executor] },
    });
    const http = await proxy.serveHttp();
    const client = new Client({ name: 'proxied', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('everything__echo');
      const echoed = await client.callTool({
        name: 'everything__echo',
        arguments: { message: 'via proxy' },
      });
      expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: via proxy' }]);
      expect(receipts).toMatchObject([
        { tool_name: 'everything__echo', executor: 'mcp_server', status: 'ok' },
      ]);
      expect(receipts[0]?.audit).toMatchObject({
        executor: { kind: 'mcp_server', serverName: 'everything' },
      });
    } finally {
      await client.close();
      await http.close();
      await mcp.close();
    }
  });
});
