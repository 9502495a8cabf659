import type { ToolRegistry } from 'switchyard';
import type { OpenToolSource, ToolSource } from 'switchyard/agent';
import {
  type ConnectMcpOptions,
  checkMcpServers,
  connectMcpServers,
} from './connect-mcp-servers.js';
import type { McpServerConfig } from './mcp-server-config.js';

/**
 * MCP servers as an agent run's `toolSource`: `agentLoop({ toolSource: mcpToolSource([...]) })`.
 * The servers are connected before the first turn and their tools join the run's as
 * `<server>__<tool>`; servers that announced `tools/list_changed` are listed again between turns;
 * all are closed when the run ends, however it ends. The configs are those of `connectMcpServers`.
 *
 * @throws InvalidOptionError naming `servers` or `servers[i]…` for a bad entry. Opening throws
 *   `McpConnectError` when a server cannot be reached and `ToolDefinitionError` when an MCP tool's
 *   name clashes with one of the run's tools.
 */
export function mcpToolSource(
  servers: readonly McpServerConfig[],
  options: Omit<ConnectMcpOptions, 'validator'> = {},
): ToolSource {
  checkMcpServers(servers, 'mcpToolSource');
  return {
    async open(tools: ToolRegistry): Promise<OpenToolSource> {
      const mcp = await connectMcpServers(servers, { ...options, validator: tools.validator });
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
    },
  };
}
