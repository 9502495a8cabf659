// A server's listing is untrusted input: its schemas are compiled by Switchyard's validator, which
// must neither stall on them nor be broken by them.
import { fileURLToPath } from 'node:url';
import { createDispatcher } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { connectMcpServers } from '../src/index.js';

const hostileServer = fileURLToPath(
  new URL('./fixtures/hostile-schema-server.mjs', import.meta.url),
);

describe('a hostile MCP server listing', () => {
  it('skips the tools whose schemas cannot be run safely, and refuses hostile arguments at once', async () => {
    const mcp = await connectMcpServers([
      { name: 'hostile', transport: 'stdio', command: process.execPath, args: [hostileServer] },
    ]);
    try {
      expect(mcp.registry.names()).toEqual([
        'hostile__nested_quantifier',
        'hostile__keyed_by_pattern',
        'hostile__plain',
      ]);
      expect(mcp.skipped.map(({ tool, reason }) => [tool, reason])).toEqual([
        ['lookahead', expect.stringMatching(/lookahead/)],
        ['backreference', expect.stringMatching(/backreference/)],
        ['deep', expect.stringMatching(/nested (too deeply|deeper than)/)],
      ]);
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const attack = 'a'.repeat(64);
      const results = await Promise.all([
        dispatcher.dispatch({
          id: 'q',
          name: 'hostile__nested_quantifier',
          arguments: { id: `${attack}!` },
        }),
        dispatcher.dispatch({
          id: 'k',
          name: 'hostile__keyed_by_pattern',
          arguments: { [`${attack}!`]: 'x' },
        }),
        dispatcher.dispatch({ id: 'p', name: 'hostile__plain', arguments: { id: 'fine' } }),
      ]);
      expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
        ['q', 'schema_violation'],
        ['k', 'schema_violation'],
        ['p', 'ok'],
      ]);
      expect(results[2]?.renderedResult).toBe('ran');
    } finally {
      await mcp.close();
    }
  });
});
