import { createToolRegistry, InvalidOptionError, type ToolRegistry } from 'switchyard';
import type { Executor } from 'switchyard/executors';
import { type AnyTool, defaultSchemaValidator, type SchemaValidator } from 'switchyard/tools';
import { McpConnectError } from './errors.js';
import { McpConnection } from './mcp-connection.js';
import { createMcpExecutor } from './mcp-executor.js';
import { checkMcpServerConfig, type McpServerConfig } from './mcp-server-config.js';
import { type McpSkippedTool, mcpToolsOf } from './mcp-tool-specs.js';

/** Options of `connectMcpServers`. */
export interface ConnectMcpOptions {
  /** Compiles the servers' schemas; use your registry's validator to share its cache. Default: the shared one. */
  readonly validator?: SchemaValidator;
  /** Called when a server announces that its tool list changed (`refresh` picks it up). */
  readonly onToolsChanged?: (server: string) => void;
}

/** Connected MCP servers: their tools as a registry, and the executor that runs them. */
export interface McpClients {
  /** Every server's tools, `<server>__<tool>`, in server then listing order. */
  readonly registry: ToolRegistry;
  /** Pass it to the dispatcher (`executors: [mcp.executor]`) or agent loop (`dispatcher: { executors }`). */
  readonly executor: Executor;
  /** Tools left out (bad names or schemas), with reasons. */
  readonly skipped: readonly McpSkippedTool[];
  /** A server's connection: its captured stderr, its pid, whether its tool list changed. */
  connection(server: string): McpConnection | undefined;
  /** True when some server announced a changed tool list since the last listing. */
  readonly toolsChanged: boolean;
  /**
   * Lists again the tools of servers whose list changed (all, with `{ all: true }`) and returns
   * the new registry (also on `registry`). Call it between turns: a turn keeps its registry.
   */
  refresh(options?: { readonly all?: boolean }): Promise<ToolRegistry>;
  /** `base` plus every MCP tool; throws `ToolDefinitionError` (`name_duplicate`) on a clash. */
  addTo(base: ToolRegistry): ToolRegistry;
  /** Closes every session; stdio servers are asked to exit, then stopped. */
  close(): Promise<void>;
}

/**
 * Connects to MCP servers (stdio or Streamable HTTP) and lists their tools. Every call then goes
 * through the dispatcher like a local tool's: validation against the server's inputSchema, the
 * middleware, receipts and events, with executor `mcp_server` and the server named in the
 * result's `audit.executor`.
 *
 * Throws `InvalidOptionError` for a bad configuration, `McpConnectError` when a server cannot be
 * reached (the others are closed again), `McpSdkMissingError` without `@modelcontextprotocol/client`.
 *
 * @example
 * const mcp = await connectMcpServers([{ name: 'fs', transport: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '.'] }]);
 * const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
 */
export async function connectMcpServers(
  servers: readonly McpServerConfig[],
  options: ConnectMcpOptions = {},
): Promise<McpClients> {
  checkMcpServers(servers, 'connectMcpServers');
  const validator = options.validator ?? defaultSchemaValidator;
  const connections = new Map<string, McpConnection>();
  for (const config of servers) {
    const onChanged = options.onToolsChanged;
    connections.set(
      config.name,
      new McpConnection(config, onChanged && (() => onChanged(config.name))),
    );
  }
  const toolsByServer = new Map<string, { tools: AnyTool[]; skipped: McpSkippedTool[] }>();

  async function list(connection: McpConnection): Promise<void> {
    let listed: Awaited<ReturnType<McpConnection['listTools']>>;
    try {
      listed = await connection.listTools();
    } catch (error) {
      throw new McpConnectError(connection.name, error);
    }
    toolsByServer.set(connection.name, mcpToolsOf(connection.config, listed, validator));
  }

  function build(): { registry: ToolRegistry; skipped: McpSkippedTool[] } {
    const tools: AnyTool[] = [];
    const skipped: McpSkippedTool[] = [];
    for (const name of connections.keys()) {
      const entry = toolsByServer.get(name);
      if (entry === undefined) continue;
      tools.push(...entry.tools);
      skipped.push(...entry.skipped);
    }
    return { registry: createToolRegistry(tools, { validator }), skipped };
  }

  const results = await Promise.allSettled([...connections.values()].map(list));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await Promise.allSettled([...connections.values()].map((connection) => connection.close()));
    throw (failed as PromiseRejectedResult).reason;
  }
  let current = build();
  const executor = createMcpExecutor(connections, validator);

  return {
    get registry() {
      return current.registry;
    },
    executor,
    get skipped() {
      return current.skipped;
    },
    connection: (server) => connections.get(server),
    get toolsChanged() {
      return [...connections.values()].some((connection) => connection.toolsChanged);
    },
    async refresh(refreshOptions = {}) {
      const stale = [...connections.values()].filter(
        (connection) => refreshOptions.all === true || connection.toolsChanged,
      );
      await Promise.all(stale.map(list));
      current = build();
      return current.registry;
    },
    addTo(base) {
      return base.withTools([...base.list(), ...current.registry.list()]);
    },
    async close() {
      await Promise.allSettled([...connections.values()].map((connection) => connection.close()));
    },
  };
}

/** Throws `InvalidOptionError` naming `servers` or `servers[i]…` unless every config is usable. */
export function checkMcpServers(servers: readonly McpServerConfig[], factory: string): void {
  if (!Array.isArray(servers)) {
    throw new InvalidOptionError('servers', `${factory}: servers must be an array`);
  }
  const names = new Set<string>();
  servers.forEach((config, index) => {
    checkMcpServerConfig(config, index);
    if (names.has(config.name)) {
      throw new InvalidOptionError(
        `servers[${index}].name`,
        `${factory}: server name "${config.name}" is used twice`,
      );
    }
    names.add(config.name);
  });
}
