import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The entry script of an MCP reference server installed from npm (a dev dependency). */
export function referenceServer(name: 'server-everything' | 'server-filesystem'): string {
  return require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);
}

/** The "everything" reference server over stdio, run by this Node: an `McpStdioServerConfig`. */
export function everythingServer<Overrides extends object = object>(overrides?: Overrides) {
  return {
    name: 'everything',
    transport: 'stdio' as const,
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
