import { fileURLToPath } from 'node:url';
import { createDispatcher } from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpClients } from '../src/index.js';

const hostile = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));

describe('connectMcpServers with a server whose listing no SDK would accept', () => {
  let mcp: McpClients;

  beforeAll(async () => {
    mcp = await connectMcpServers([
      { name: 'h', transport: 'stdio', command: process.execPath, args: [hostile] },
    ]);
  });
  afterAll(async () => {
    await mcp.close();
  });

  it('keeps the usable tools and lists each unusable one in skipped with its reason', () => {
    expect(mcp.registry.names()).toEqual(['h__echo', 'h__weather', 'h__liar', 'h__numbers']);
    expect(mcp.skipped.map((skipped) => skipped.tool)).toEqual([
      'bogus',
      'stringly',
      'dangling',
      'schemaless',
      'deep',
      '42',
    ]);
    for (const skipped of mcp.skipped) expect(skipped.reason).not.toBe('');
    expect(mcp.skipped.find((skipped) => skipped.tool === 'deep')?.reason).toMatch(/deep/);
  });

  it('still runs calls on the tools it kept', async () => {
    const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
    const echoed = await dispatcher.dispatch({
      id: 'e1',
      name: 'h__echo',
      arguments: '{"text":"still here"}',
    });
    expect(echoed).toMatchObject({ ok: true, renderedResult: 'still here' });
  });

  it('gives structured results as values, checked against their declared schema', async () => {
    const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
    const weather = await dispatcher.dispatch({ id: 'w1', name: 'h__weather', arguments: '{}' });
    expect(weather).toMatchObject({ ok: true, result: { celsius: 21 } });
    // 2025-11-25 allows only an object there: an array from a server of that era is its fault.
    const numbers = await dispatcher.dispatch({ id: 'n1', name: 'h__numbers', arguments: '{}' });
    expect(numbers).toMatchObject({ ok: false, errorCategory: 'mcp_server_error' });
    const liar = await dispatcher.dispatch({ id: 'l1', name: 'h__liar', arguments: '{}' });
    expect(liar).toMatchObject({ ok: false, errorCategory: 'mcp_server_error' });
    expect(liar.observation).toMatch(/outputSchema/);
  });
});
