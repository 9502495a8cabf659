import { fileURLToPath } from 'node:url';
import { createDispatcher } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { connectMcpServers } from '../src/index.js';

const changingServer = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));

describe('tools/list_changed', () => {
  it('marks the tools stale and refresh() lists them again, leaving the old registry as it was', async () => {
    let changed: (server: string) => void = () => {};
    const announced = new Promise<string>((resolve) => {
      changed = resolve;
    });
    const mcp = await connectMcpServers(
      [{ name: 'changing', transport: 'stdio', command: process.execPath, args: [changingServer] }],
      { onToolsChanged: (server) => changed(server) },
    );
    try {
      const before = mcp.registry;
      expect(before.names()).toEqual(['changing__add_tool']);
      const dispatcher = createDispatcher({ registry: before, executors: [mcp.executor] });
      const added = await dispatcher.dispatch({
        id: 'l1',
        name: 'changing__add_tool',
        arguments: '{}',
      });
      expect(added.ok).toBe(true);
      expect(await announced).toBe('changing');
      expect(mcp.toolsChanged).toBe(true);
      const after = await mcp.refresh();
      expect(after.names()).toEqual(['changing__add_tool', 'changing__extra']);
      expect(before.names()).toEqual(['changing__add_tool']);
      expect(mcp.toolsChanged).toBe(false);
      const next = createDispatcher({ registry: after, executors: [mcp.executor] });
      const extra = await next.dispatch({
        id: 'l2',
        name: 'changing__extra',
        arguments: '{"word":"hello"}',
      });
      expect(extra).toMatchObject({ ok: true, renderedResult: 'extra hello' });
    } finally {
      await mcp.close();
    }
  });
});
