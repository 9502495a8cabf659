import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { governanceStack } from 'switchyard';
import type { ToolCallReceipt } from 'switchyard/receipts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, type McpHttpServing } from '../src/index.js';
import { type AnyClient, connectSdkClients } from './sdk-clients.js';
import { aborted, fixtureRegistry } from './server-fixture.js';

const receipts: ToolCallReceipt[] = [];
const stack = governanceStack({
  audit: { sink: (receipt) => void receipts.push(receipt) },
  redaction: ({ phase, result }) =>
    phase === 'out' && typeof result === 'string'
      ? { result: result.replaceAll(/sk-live-\d+/g, '[redacted]') }
      : undefined,
  rateLimit: { perTool: { boom: 2 } },
});

describe('createMcpServer over Streamable HTTP, driven by the official SDK clients', () => {
  let http: McpHttpServing;
  const clients: Record<string, AnyClient> = {};

  beforeAll(async () => {
    const server = createMcpServer({ registry: fixtureRegistry, caller: stack.caller });
    http = await server.serveHttp();
    const { legacy, modern, v1 } = await connectSdkClients(http.url);
    Object.assign(clients, { legacy, modern, v1 });
    expect(legacy.getNegotiatedProtocolVersion?.()).toBe('2025-11-25');
    expect(modern.getNegotiatedProtocolVersion?.()).toBe('2026-07-28');
  });
  afterAll(async () => {
    await Promise.all(Object.values(clients).map((client) => client.close()));
    await http.close();
  });

  it('binds to loopback', () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it.each(['legacy', 'modern', 'v1'])(
    'lists tools sorted, with schemas and annotations (%s)',
    async (which) => {
      const { tools } = await (clients[which] as AnyClient).listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['add', 'boom', 'secret', 'slow']);
      expect(tools[0]).toMatchObject({
        inputSchema: { required: ['a', 'b'] },
        outputSchema: { required: ['sum'] },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      });
    },
  );

  it.each(['legacy', 'modern', 'v1'])(
    'runs a call through the stack with receipts (%s)',
    async (which) => {
      const before = receipts.length;
      const result = await (clients[which] as AnyClient).callTool({
        name: 'add',
        arguments: { a: 2, b: 40 },
      });
      expect(result).toMatchObject({ structuredContent: { sum: 42 } });
      expect(result.isError).toBeFalsy();
      expect(receipts.slice(before)).toMatchObject([
        { tool_name: 'add', status: 'ok', session_id: 'mcp' },
      ]);
    },
  );

  it('answers invalid arguments and tool failures with isError the model can read', async () => {
    const client = clients.legacy as AnyClient;
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'two' } });
    expect(invalid).toMatchObject({ isError: true });
    expect(JSON.stringify(invalid.content)).toMatch(/Invalid arguments|must be number/);
    const failed = await client.callTool({ name: 'boom', arguments: {} });
    expect(JSON.stringify(failed.content)).toContain('failed on purpose');
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(JSON.stringify(unknown.content)).toContain('Unknown tool');
  });

  it('applies redaction and rate limits to MCP clients', async () => {
    const client = clients.modern as AnyClient;
    const secret = await client.callTool({ name: 'secret', arguments: {} });
    expect(JSON.stringify(secret.content)).toContain('[redacted]');
    expect(JSON.stringify(secret.content)).not.toContain('sk-live');
    await client.callTool({ name: 'boom', arguments: {} });
    const limited = await client.callTool({ name: 'boom', arguments: {} });
    expect(limited).toMatchObject({ isError: true });
    expect(JSON.stringify(limited.content)).toMatch(/rate limit/);
  });

  it.each(['legacy', 'modern', 'v1'])(
    'forwards progress and aborts the call when the client cancels (%s)',
    async (which) => {
      const controller = new AbortController();
      const progress: unknown[] = [];
      const options = {
        signal: controller.signal,
        onprogress: (update: unknown) => {
          progress.push(update);
          controller.abort(new Error('stop'));
        },
      };
      const params = { name: 'slow', arguments: { tag: which } };
      // The v1 client takes a result schema before the options.
      const call =
        which === 'v1'
          ? (clients.v1 as unknown as V1Client).callTool(params, undefined, options)
          : (clients[which] as AnyClient).callTool(params, options);
      await expect(call).rejects.toThrow();
      expect(progress).toMatchObject([{ progress: 1, total: 10, message: 'started' }]);
      await expect.poll(() => aborted.includes(which)).toBe(true);
    },
  );
});

describe('serveHttp guards', () => {
  it('refuses foreign origins and requests without the bearer token', async () => {
    const server = createMcpServer({ registry: fixtureRegistry });
    const http = await server.serveHttp({ bearerToken: 'a-long-enough-test-token' });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const foreign = await fetch(http.url, {
        method: 'POST',
        body,
        headers: { ...headers, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
      const anonymous = await fetch(http.url, { method: 'POST', body, headers });
      expect(anonymous.status).toBe(401);
      const client = new V2Client({ name: 'authorized', version: '1' });
      await client.connect(
        new V2Http(new URL(http.url), {
          requestInit: { headers: { authorization: 'Bearer a-long-enough-test-token' } },
        }),
      );
      expect((await client.listTools()).tools).toHaveLength(4);
      await client.close();
    } finally {
      await http.close();
    }
  });
});
