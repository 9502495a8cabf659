import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from '../../src/executors.js';
import { createDispatcher, createToolRegistry, defineTool, dispatchTurn } from '../../src/index.js';

const fixture = new URL('../fixtures/workers/tools.mjs', import.meta.url);

function workerTool(name: string, exportName: string) {
  return defineTool({
    name,
    description: name,
    inputSchema: { type: 'object' },
    safety: { sideEffectLevel: 'network', spend: true },
    executor: { kind: 'worker', module: fixture, export: exportName },
  });
}

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function setup(options: Parameters<typeof createWorkerPool>[0] = {}) {
  pool = createWorkerPool({ maxThreads: 2, ...options });
  return createDispatcher({
    registry: createToolRegistry([
      workerTool('charge', 'charge'),
      workerTool('bad_cost', 'badCost'),
    ]),
    executors: [pool.executor],
  });
}

describe('costs reported in a worker', () => {
  it('reach the call’s result, every report counted before it settles', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({ id: 'c', name: 'charge', arguments: { pages: 3 } });
    expect(result).toMatchObject({ ok: true, executor: 'worker', result: 3 });
    expect(result.usage).toEqual({ toolCostUsd: 0.75, units: 3, unit: 'page' });
  });

  it('are kept on a call whose handler then threw', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({
      id: 'c',
      name: 'charge',
      arguments: { pages: 2, fail: true },
    });
    expect(result).toMatchObject({ ok: false, status: 'error' });
    expect(result.usage).toEqual({ toolCostUsd: 0.5, units: 2, unit: 'page' });
  });

  it('are checked in the worker, where the handler sees a bad one', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({ id: 'c', name: 'bad_cost', arguments: {} });
    expect(result.result).toEqual({ refused: 'SY_ERR_INVALID_ARGUMENT' });
    expect(result).not.toHaveProperty('usage');
  });

  it('stay with their own call in a batch run on one thread', async () => {
    const dispatcher = setup({ maxThreads: 1, maxBatch: 4 });
    const results = await dispatchTurn(
      [
        { id: 'a', name: 'charge', arguments: { pages: 1 } },
        { id: 'b', name: 'charge', arguments: { pages: 2 } },
        { id: 'c', name: 'charge', arguments: { pages: 4 } },
      ],
      { dispatcher, maxConcurrentTools: 3 },
    );
    expect(results.map((result) => result.usage?.units)).toEqual([1, 2, 4]);
  });
});
