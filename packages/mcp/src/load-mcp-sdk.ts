import { McpSdkMissingError } from './errors.js';

type ClientModule = typeof import('@modelcontextprotocol/client');
type StdioModule = typeof import('@modelcontextprotocol/client/stdio');
type ServerModule = typeof import('@modelcontextprotocol/server');
type ServerStdioModule = typeof import('@modelcontextprotocol/server/stdio');

const cache = new Map<string, Promise<unknown>>();

// The specifiers are literal so bundlers and TypeScript see them; each loads once.
function load<T>(packageName: string, importer: () => Promise<T>): Promise<T> {
  let loaded = cache.get(packageName) as Promise<T> | undefined;
  if (loaded === undefined) {
    loaded = importer().catch((error: unknown) => {
      cache.delete(packageName);
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
        throw new McpSdkMissingError(packageName.replace(/\/(stdio)$/, ''), error);
      }
      throw error;
    });
    cache.set(packageName, loaded);
  }
  return loaded;
}

/** The MCP client SDK (`@modelcontextprotocol/client`). Throws `McpSdkMissingError` when absent. */
export function loadClientSdk(): Promise<ClientModule> {
  return load('@modelcontextprotocol/client', () => import('@modelcontextprotocol/client'));
}

/** The client's stdio transport. Throws `McpSdkMissingError` when absent. */
export function loadClientStdio(): Promise<StdioModule> {
  return load(
    '@modelcontextprotocol/client/stdio',
    () => import('@modelcontextprotocol/client/stdio'),
  );
}

/** The MCP server SDK (`@modelcontextprotocol/server`). Throws `McpSdkMissingError` when absent. */
export function loadServerSdk(): Promise<ServerModule> {
  return load('@modelcontextprotocol/server', () => import('@modelcontextprotocol/server'));
}

/** The server's stdio transport. Throws `McpSdkMissingError` when absent. */
export function loadServerStdio(): Promise<ServerStdioModule> {
  return load(
    '@modelcontextprotocol/server/stdio',
    () => import('@modelcontextprotocol/server/stdio'),
  );
}
