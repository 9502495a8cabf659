import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../../src/mcp/index.js';

/** The entry script of a reference server installed from npm. */
export function referenceServer(name: 'server-everything' | 'server-filesystem'): string {
  const entry = name === 'server-everything' ? 'dist/index.js' : 'dist/index.js';
  return fileURLToPath(
    new URL(`../../node_modules/@modelcontextprotocol/${name}/${entry}`, import.meta.url),
  );
}

/** The "everything" reference server over stdio, run by this Node. */
export function everythingServer(
  overrides: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return {
    name: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [referenceServer('server-everything'), 'stdio'],
    ...overrides,
  };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
