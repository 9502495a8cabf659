import type { Executor } from '../dispatch/executor.js';
import { InvalidOptionError } from '../errors.js';
import type { McpClients } from '../mcp/connect-mcp-servers.js';
import type { McpServerConfig } from '../mcp/mcp-server-config.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/** The run's MCP servers, connected: the tools they add, their executor, and their lifetime. */
export interface AgentMcpServers {
  /** The user's tools plus every server's `<server>__<tool>`. */
  readonly registry: ToolRegistry;
  readonly executor: Executor;
  /**
   * Lists again the tools of servers that announced `tools/list_changed`; null when none did.
   * Throws what listing threw (`McpConnectError`); the previous registry stays valid.
   */
  refreshed(): Promise<ToolRegistry | null>;
  close(): Promise<void>;
}

/**
 * Connects `agentLoop`'s `mcpServers`. `switchyard/mcp` (and through it the MCP SDK) is loaded
 * only here, dynamically, so a loop without servers never imports it; the import rules allow the
 * agent room nothing more of `mcp/` than this load and its types.
 *
 * @throws InvalidOptionError naming `mcpServers[i]…` for a bad entry; McpConnectError when a server
 *   cannot be reached; McpSdkMissingError without `@modelcontextprotocol/client`;
 *   ToolDefinitionError when an MCP tool's name clashes with one of `tools`.
 */
export async function connectAgentMcpServers(
  servers: readonly McpServerConfig[],
  tools: ToolRegistry,
): Promise<AgentMcpServers> {
  const { connectMcpServers } = await import('../mcp/index.js');
  let mcp: McpClients;
  try {
    mcp = await connectMcpServers(servers, { validator: tools.validator });
  } catch (error) {
    if (!InvalidOptionError.isInstance(error)) throw error;
    throw new InvalidOptionError(
      error.option.replace(/^servers/, 'mcpServers'),
      error.message.replace('connectMcpServers: servers', 'agentLoop: mcpServers'),
    );
  }
  let registry: ToolRegistry;
  try {
    registry = mcp.addTo(tools);
  } catch (error) {
    await mcp.close();
    throw error;
  }
  return {
    get registry() {
      return registry;
    },
    executor: mcp.executor,
    async refreshed() {
      if (!mcp.toolsChanged) return null;
      await mcp.refresh();
      registry = mcp.addTo(tools);
      return registry;
    },
    close: () => mcp.close(),
  };
}
