import { SwitchyardError } from 'switchyard';
import { errorMessage } from 'switchyard/extension';

/** An optional peer package that `switchyard/mcp` needs is not installed. Names the package. */
export class McpSdkMissingError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_MCP_SDK_MISSING';
  static readonly FORMER_CODES: readonly string[] = ['mcp_sdk_missing'];
  readonly code = McpSdkMissingError.CODE;
  readonly packageName: string;

  constructor(packageName: string, cause: unknown) {
    super(
      `switchyard/mcp needs the optional peer dependency ${packageName}: run \`npm install ${packageName}\``,
      { cause },
    );
    this.packageName = packageName;
  }
}

/** A server could not be reached or listed when connecting. Names the `server`. */
export class McpConnectError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_MCP_CONNECT';
  static readonly FORMER_CODES: readonly string[] = ['mcp_connect_failed'];
  readonly code = McpConnectError.CODE;
  readonly server: string;

  constructor(server: string, cause: unknown) {
    super(`MCP server "${server}" could not be connected: ${errorMessage(cause)}`, { cause });
    this.server = server;
  }
}
