// packages/mcp/README.md: MCP both ways — servers' tools in a registry or an agent loop, and a
// registry served over MCP through the middleware.
import type { ModelClient, ToolCaller, ToolRegistry } from 'switchyard';
import type { ConsentPrompt } from 'switchyard/middleware';

declare const registry: ToolRegistry;
declare const localTools: ToolRegistry;
declare const tools: ToolRegistry;
declare const caller: ToolCaller;
declare const model: ModelClient;
declare const task: string;
declare const token: string;
declare const authorization: string;
declare const bearerToken: string;
declare const ask: ConsentPrompt;

// #region overview
import { connectMcpServers, createMcpServer, mcpToolSource } from '@switchyard/mcp';
import { agentLoop, createDispatcher, governanceStack } from 'switchyard';

// Client: each server's tools enter a registry as <server>__<tool>.
const mcp = await connectMcpServers([
  { name: 'fs', transport: 'stdio', command: 'npx', args: ['mcp-server-filesystem', '.'] },
  {
    name: 'search',
    transport: 'http',
    url: 'https://search.example/mcp',
    headers: { authorization },
  },
]);
const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor], caller });
await dispatcher.dispatch({
  id: 'c1',
  name: 'fs__read_text_file',
  arguments: '{"path":"README.md"}',
});

// Or let the agent loop connect, refresh and close them: its tools join yours as <server>__<tool>.
const run = await agentLoop({
  task,
  model,
  tools,
  toolSource: mcpToolSource([
    { name: 'fs', transport: 'stdio', command: 'npx', args: ['mcp-server-filesystem', '.'] },
  ]),
});

// Server: every tools/call runs through your middleware (receipts, consent, scope, rate limits).
const server = createMcpServer({
  registry,
  caller: governanceStack({ audit: { sink: 'local' } }).caller,
});
const http = await server.serveHttp({ port: 8765, bearerToken }); // 127.0.0.1, Origin checked
// #endregion overview

// #region client
const servers = await connectMcpServers([
  {
    name: 'fs',
    transport: 'stdio',
    command: 'npx',
    args: ['mcp-server-filesystem', '.'],
    trusted: true,
  },
  {
    name: 'search',
    transport: 'http',
    url: 'https://search.example/mcp',
    headers: { authorization: `Bearer ${token}` },
  },
]);
const mcpDispatcher = createDispatcher({
  registry: servers.registry,
  executors: [servers.executor],
  caller,
});
// #endregion client

// #region agent-loop
const stack = governanceStack({
  audit: { sink: 'local' },
  consent: ask,
  rateLimit: { maxCalls: 500 },
});
const summary = await agentLoop({
  task: 'Summarise notes.txt',
  model,
  tools: localTools,
  toolCaller: stack.caller, // runs for MCP tools exactly as for local ones
  toolSource: mcpToolSource([
    {
      name: 'fs',
      transport: 'stdio',
      command: 'npx',
      args: ['mcp-server-filesystem', '.'],
      trusted: true,
    },
    { name: 'search', transport: 'http', url: 'https://search.example/mcp' },
  ]),
});
// #endregion agent-loop

// #region server
const governed = createMcpServer({ registry, caller: stack.caller });
await governed.serveStdio(); // one client over stdin/stdout
const served = await governed.serveHttp({ port: 8765, bearerToken }); // Streamable HTTP on 127.0.0.1
// #endregion server

// #region proxy
const upstream = await connectMcpServers([
  { name: 'github', transport: 'stdio', command: 'github-mcp' },
]);
const proxy = createMcpServer({
  registry: upstream.registry,
  caller: stack.caller,
  dispatcher: { executors: [upstream.executor] },
});
await proxy.serveHttp({ port: 8766, bearerToken });

// #endregion proxy

export { http, mcpDispatcher, run, served, summary };
