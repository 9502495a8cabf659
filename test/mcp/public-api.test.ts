import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as mcp from '../../src/mcp/index.js';

// The runtime names of `switchyard/mcp`, sorted: changing them is a deliberate edit of this list.
const MCP_NAMES = [
  'McpConnectError',
  'McpSdkMissingError',
  'connectMcpServers',
  'createMcpServer',
  'mcpToolList',
  'mcpToolName',
  'mcpToolSafety',
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

describe('switchyard/mcp', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(mcp).sort()).toEqual(MCP_NAMES);
  });

  it('is the only part of the package that loads the MCP SDK', () => {
    const root = fileURLToPath(new URL('../../src', import.meta.url));
    const loaders = sourceFiles(root).filter(
      (file) =>
        /^import (?!type)[^;]*'@modelcontextprotocol\//m.test(readFileSync(file, 'utf8')) ||
        /import\('@modelcontextprotocol\//.test(readFileSync(file, 'utf8')),
    );
    expect(loaders.map((file) => file.slice(root.length + 1))).toEqual(['mcp/load-mcp-sdk.ts']);
  });

  it('is a subpath of the package with its types', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(manifest.exports['./mcp']).toEqual({
      types: './dist/mcp/index.d.ts',
      default: './dist/mcp/index.js',
    });
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(manifest.peerDependenciesMeta['@modelcontextprotocol/client']).toEqual({
      optional: true,
    });
  });
});
