export {
  type ConnectMcpOptions,
  connectMcpServers,
  type McpClients,
  McpConnectError,
} from './connect-mcp-servers.js';
export { McpSdkMissingError } from './load-mcp-sdk.js';
export type { McpCallOptions, McpConnection, McpProgress } from './mcp-connection.js';
export { type McpToolHints, mcpToolSafety } from './mcp-safety.js';
export type {
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
} from './mcp-server-config.js';
export { type McpSkippedTool, type McpToolOrigin, mcpToolName } from './mcp-tool-specs.js';
