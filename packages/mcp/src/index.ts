export {
  type ConnectMcpOptions,
  connectMcpServers,
  type McpClients,
} from './connect-mcp-servers.js';
export {
  createMcpServer,
  type McpServerOptions,
  type McpServing,
  type SwitchyardMcpServer,
} from './create-mcp-server.js';
export { McpConnectError, McpSdkMissingError } from './errors.js';
export type { McpCallOptions, McpConnection, McpProgress } from './mcp-connection.js';
export { type McpToolHints, mcpToolSafety } from './mcp-safety.js';
export type {
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
} from './mcp-server-config.js';
export { mcpToolList } from './mcp-tool-list.js';
export { mcpToolSource } from './mcp-tool-source.js';
export { type McpSkippedTool, type McpToolOrigin, mcpToolName } from './mcp-tool-specs.js';
export type { McpHttpOptions, McpHttpServing } from './serve-mcp-http.js';
