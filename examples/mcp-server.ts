// A Switchyard registry served as an MCP server, every call through the governance stack.
// Run: npm run build && npx tsx examples/mcp-server.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcpServers, createMcpServer } from '@switchyard/mcp';
import { createDispatcher, createToolRegistry, defineTool, governanceStack } from 'switchyard';

const add = defineTool<{ a: number; b: number }, { sum: number }>({
  name: 'add',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  safety: { sideEffectLevel: 'none' },
  handler: ({ a, b }) => ({ sum: a + b }),
});

const receipts = mkdtempSync(join(tmpdir(), 'switchyard-receipts-'));
const stack = governanceStack({
  audit: { sink: 'local', directory: receipts },
  rateLimit: { maxCalls: 100, window: { ms: 60_000 } },
});
const server = createMcpServer({ registry: createToolRegistry([add]), caller: stack.caller });

// Streamable HTTP on 127.0.0.1 (any free port here), behind a bearer token.
// `await server.serveStdio()` serves one client over stdin/stdout instead.
const token = 'example-token-0123456789';
const http = await server.serveHttp({ bearerToken: token });
console.log(`serving at ${http.url}`);

// Any MCP client can call it now; here, Switchyard's own.
const mcp = await connectMcpServers([
  { name: 'calc', transport: 'http', url: http.url, headers: { authorization: `Bearer ${token}` } },
]);
const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
const result = await dispatcher.dispatch({
  id: 'c1',
  name: 'calc__add',
  arguments: '{"a":2,"b":40}',
});
console.log(result.result); // { sum: 42 }, with a receipt in the server's log

await mcp.close();
await http.close();
await stack.close();
rmSync(receipts, { recursive: true, force: true });
