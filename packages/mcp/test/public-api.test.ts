import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as mcp from '../src/index.js';

// The runtime names of @switchyard/mcp, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const MCP_NAMES = [
  'McpConnectError',
  'McpSdkMissingError',
  'connectMcpServers',
  'createMcpServer',
  'mcpToolList',
  'mcpToolName',
  'mcpToolSafety',
  'mcpToolSource',
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

describe('@switchyard/mcp', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(mcp).sort()).toEqual(MCP_NAMES);
  });

  it('is the only part of the package that loads the MCP SDK', () => {
    const root = fileURLToPath(new URL('../src', import.meta.url));
    const loaders = sourceFiles(root).filter(
      (file) =>
        /^import (?!type)[^;]*'@modelcontextprotocol\//m.test(readFileSync(file, 'utf8')) ||
        /import\('@modelcontextprotocol\//.test(readFileSync(file, 'utf8')),
    );
    expect(loaders.map((file) => file.slice(root.length + 1))).toEqual(['load-mcp-sdk.ts']);
  });
});
