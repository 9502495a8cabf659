import { InvalidOptionError } from 'switchyard';

/** How the client reaches one MCP server, and how far Switchyard trusts it. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

interface McpServerConfigBase {
  /** Prefix of the server's tools (`<name>__<tool>`): letters, digits, `_`, `-`, no `__`. */
  readonly name: string;
  /**
   * Believe the server's annotations (`readOnlyHint`, `idempotentHint`, …). Default false: an
   * untrusted server's tools count as open-world writers, so they never get retries, eager
   * starts or parallel lanes by claiming to be harmless.
   */
  readonly trusted?: boolean;
  /** Time limit of one call, in ms; the call then yields `timeout` and the server is told to cancel. Default 60 000. */
  readonly timeoutMs?: number;
  /**
   * Protocol negotiation: `legacy` (2025-11-25 `initialize`, the default), `auto` (probe for
   * 2026-07-28, fall back to legacy), or a pinned revision such as `'2026-07-28'`.
   */
  readonly protocol?: 'legacy' | 'auto' | (string & {});
}

/** A server spawned as a child process, spoken to over its stdin/stdout. */
export interface McpStdioServerConfig extends McpServerConfigBase {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the SDK's minimal inherited environment (HOME, PATH, …). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerConfigBase {
  readonly transport: 'http';
  readonly url: string | URL;
  /** Sent with every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
}

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks one server's configuration; throws `InvalidOptionError` naming the option. */
export function checkMcpServerConfig(config: McpServerConfig, index: number): void {
  const at = `servers[${index}]`;
  if (typeof config !== 'object' || config === null) {
    throw new InvalidOptionError(at, `connectMcpServers: ${at} must be an object`);
  }
  if (
    typeof config.name !== 'string' ||
    !SERVER_NAME.test(config.name) ||
    config.name.includes('__')
  ) {
    throw new InvalidOptionError(
      `${at}.name`,
      `connectMcpServers: ${at}.name must match ^[a-zA-Z0-9_-]{1,64}$ without "__"; got ${JSON.stringify(config.name)}`,
    );
  }
  if (
    config.timeoutMs !== undefined &&
    !(Number.isFinite(config.timeoutMs) && config.timeoutMs > 0)
  ) {
    throw new InvalidOptionError(
      `${at}.timeoutMs`,
      `connectMcpServers: ${at}.timeoutMs must be a positive number`,
    );
  }
  if (config.transport === 'stdio') {
    if (typeof config.command !== 'string' || config.command === '') {
      throw new InvalidOptionError(
        `${at}.command`,
        `connectMcpServers: ${at}.command must be a non-empty string`,
      );
    }
    return;
  }
  if (config.transport === 'http') {
    try {
      const url = new URL(config.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(url.protocol);
    } catch {
      throw new InvalidOptionError(
        `${at}.url`,
        `connectMcpServers: ${at}.url must be an http(s) URL`,
      );
    }
    return;
  }
  throw new InvalidOptionError(
    `${at}.transport`,
    `connectMcpServers: ${at}.transport must be "stdio" or "http"; got ${JSON.stringify((config as { transport?: unknown }).transport)}`,
  );
}
