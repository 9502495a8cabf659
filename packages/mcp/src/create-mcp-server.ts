import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type {
  CallToolResult,
  Tool as McpTool,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { JsonObject, ToolCaller, ToolRegistry } from 'switchyard';
import {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  InvalidOptionError,
} from 'switchyard';
import type { ToolCallProgressEvent } from 'switchyard/dispatch';
import { CallLimiter } from './call-limiter.js';
import { loadServerSdk, loadServerStdio } from './load-mcp-sdk.js';
import { mcpToolList } from './mcp-tool-list.js';
import { mcpCallResultOf } from './mcp-tool-result.js';
import { type McpHttpOptions, type McpHttpServing, serveMcpHttp } from './serve-mcp-http.js';
import { StdioServerTransport } from './stdio-server-transport.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** The tools to serve. */
  readonly registry: ToolRegistry;
  /** The middleware every `tools/call` runs through (e.g. `governanceStack(...).caller`). Default: none. */
  readonly caller?: ToolCaller;
  /** Everything else the dispatcher takes: executors (worker pool, MCP clients for a proxy), context, … */
  readonly dispatcher?: Omit<DispatcherOptions, 'registry' | 'caller'>;
  /** Server name in `initialize` / `server/discover`. Default `switchyard`. */
  readonly name?: string;
  readonly version?: string;
  readonly instructions?: string;
  /** Calls running at once over all clients; the rest wait. Default 16. */
  readonly maxConcurrentCalls?: number;
  /** The session id receipts and events carry. Default `mcp`. */
  readonly sessionId?: string;
  /**
   * The largest message accepted, in bytes: a stdio line or an HTTP request body. A longer one is
   * answered with an error (stdio: `-32600` under its id; HTTP: 413) and the server lives on.
   * Default 4 MiB.
   */
  readonly maxMessageBytes?: number;
}

/** A stdio or HTTP server that is running. */
export interface McpServing {
  close(): Promise<void>;
}

/** A registry served as an MCP server. */
export interface SwitchyardMcpServer {
  /** The dispatcher every `tools/call` goes through; subscribe to its `events$` to watch calls. */
  readonly dispatcher: Dispatcher;
  /** What `tools/list` returns: sorted by name, with schemas and annotations. */
  listTools(): McpTool[];
  /** A fresh SDK server bound to this dispatcher (one per connection or HTTP exchange). */
  sdkServer(): Promise<Server>;
  /** Serves one client over stdin/stdout (default: the process's). */
  serveStdio(streams?: {
    readonly stdin?: Readable;
    readonly stdout?: Writable;
  }): Promise<McpServing>;
  /** Serves Streamable HTTP (both protocol revisions) on 127.0.0.1 unless told otherwise. */
  serveHttp(options?: McpHttpOptions): Promise<McpHttpServing>;
}

const DEFAULT_MAX_CONCURRENT_CALLS = 16;
const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Serves a registry as an MCP server. Every `tools/call` runs through the full dispatch path
 * (validation, the middleware: receipts, consent, scope, rate limits, redaction; the executor), so
 * MCP clients get the same governance as an agent. Client cancellation aborts the call; progress is
 * forwarded when the client asked for it; at most `maxConcurrentCalls` calls run at once.
 *
 * Throws `InvalidOptionError` on bad options; the serve methods reject with `McpSdkMissingError`
 * without `@modelcontextprotocol/server` (and `@modelcontextprotocol/node` for HTTP).
 *
 * @example
 * const server = createMcpServer({ registry, caller: governanceStack({ audit: 'local' }).caller });
 * const http = await server.serveHttp({ port: 8765, bearerToken: process.env.MCP_TOKEN });
 */
export function createMcpServer(options: McpServerOptions): SwitchyardMcpServer {
  const registry = options.registry;
  if (registry === undefined || typeof registry.resolve !== 'function') {
    throw new InvalidOptionError('registry', 'createMcpServer: registry must be a ToolRegistry');
  }
  const limit = options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidOptionError(
      'maxConcurrentCalls',
      'createMcpServer: maxConcurrentCalls must be an integer ≥ 1',
    );
  }
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1) {
    throw new InvalidOptionError(
      'maxMessageBytes',
      'createMcpServer: maxMessageBytes must be an integer ≥ 1',
    );
  }
  const dispatcher = createDispatcher({
    ...options.dispatcher,
    registry,
    ...(options.caller === undefined ? {} : { caller: options.caller }),
  });
  const limiter = new CallLimiter(limit);
  const tools = mcpToolList(registry);
  const sessionId = options.sessionId ?? 'mcp';

  async function callTool(
    server: Server,
    params: { name: string; arguments?: Record<string, unknown> },
    context: ServerContext,
  ): Promise<CallToolResult> {
    const signal = context.mcpReq.signal;
    const callId = `mcp_${randomUUID()}`;
    const release = await limiter.acquire(signal);
    const progressToken = context.mcpReq._meta?.progressToken;
    let steps = 0;
    const subscription =
      progressToken === undefined
        ? undefined
        : dispatcher.events$.subscribe((event) => {
            if (event.type !== 'tool_call_progress' || event.toolCallId !== callId) return;
            const { progress } = event as ToolCallProgressEvent;
            steps += 1;
            context.mcpReq
              .notify({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress: progress.progress ?? steps,
                  ...(progress.total === undefined ? {} : { total: progress.total }),
                  ...(progress.message === undefined ? {} : { message: progress.message }),
                },
              })
              .catch(() => undefined);
          });
    try {
      const result = await dispatcher.dispatch(
        { id: callId, name: params.name, arguments: (params.arguments ?? {}) as JsonObject },
        { signal, sessionId },
      );
      const tool = registry.resolve(result.toolName);
      // The SDK fits structured results to the era: a 2025 client gets a non-object value wrapped.
      return server.projectCallToolResult(
        mcpCallResultOf(result, tool, registry.validator),
        tool?.outputSchema,
      );
    } finally {
      subscription?.unsubscribe();
      release();
    }
  }

  async function sdkServer(): Promise<Server> {
    const { Server } = await loadServerSdk();
    const server = new Server(
      { name: options.name ?? 'switchyard', version: options.version ?? '0.1.0' },
      {
        capabilities: { tools: { listChanged: false } },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
    );
    server.setRequestHandler('tools/list', () => ({ tools }));
    server.setRequestHandler('tools/call', (request, context) =>
      callTool(server, request.params, context),
    );
    return server;
  }

  return {
    dispatcher,
    listTools: () => tools,
    sdkServer,
    async serveStdio(streams = {}) {
      const [{ serveStdio }, { parseJSONRPCMessage }] = await Promise.all([
        loadServerStdio(),
        loadServerSdk(),
      ]);
      const transport = new StdioServerTransport({
        stdin: streams.stdin ?? process.stdin,
        stdout: streams.stdout ?? process.stdout,
        maxMessageBytes,
        parseMessage: parseJSONRPCMessage,
      });
      // The SDK's entry picks the protocol era from the opening message, as over HTTP.
      const serving = serveStdio(() => sdkServer(), { transport });
      return { close: () => serving.close() };
    },
    serveHttp: (httpOptions = {}) => serveMcpHttp(sdkServer, httpOptions, maxMessageBytes),
  };
}
