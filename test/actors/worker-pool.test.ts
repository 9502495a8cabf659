import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../src/errors.js';
import { createWorkerPool, type WorkerPool } from '../../src/executors.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
  type ToolCallEvent,
} from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import { thrownBy } from '../support/thrown-by.js';

const fixture = new URL('../fixtures/workers/tools.mjs', import.meta.url);
const OBJECT = { type: 'object' } as const;

function workerTool(name: string, exportName: string, extra: object = {}) {
  return defineTool({
    name,
    description: name,
    inputSchema: OBJECT,
    safety: { readOnly: true },
    executor: { kind: 'worker', module: fixture, export: exportName },
    ...extra,
  });
}

const tools = [
  workerTool('echo', 'echo'),
  workerTool('later', 'later'),
  workerTool('chatty', 'chatty'),
  workerTool('fail', 'fail'),
  workerTool('exit', 'exit'),
  workerTool('spin', 'spin', { timeoutMs: 200 }),
  workerTool('hog', 'hog'),
  workerTool('progress', 'progress'),
  workerTool('read_context', 'readContext', { injected: ['context'] }),
  defineTool({
    name: 'dies_at_import',
    description: 'd',
    inputSchema: OBJECT,
    safety: { readOnly: true },
    executor: {
      kind: 'worker',
      module: new URL('../fixtures/workers/exit-at-import.mjs', import.meta.url),
      export: 'never',
    },
  }),
];

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function setup(options: Parameters<typeof createWorkerPool>[0] = {}) {
  pool = createWorkerPool({ maxThreads: 2, ...options });
  return createDispatcher({
    registry: createToolRegistry(tools),
    executors: [pool.executor],
    context: { user: { name: 'ada' } },
  });
}

describe('the worker pool executor', () => {
  it('runs a handler in a worker and returns its value', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({
      id: 'e',
      name: 'echo',
      arguments: { value: { deep: [1, 2] } },
    });
    expect(result).toMatchObject({
      ok: true,
      executor: 'worker',
      result: { deep: [1, 2] },
      toolCallId: 'e',
    });
  });

  it('returns arrays, empty values and objects from a lone call unchanged', async () => {
    const dispatcher = setup({ maxThreads: 1 });
    const values = [[1, 'two'], [], null, 0, '', { list: [1, 2] }];
    for (const [index, value] of values.entries()) {
      const result = await dispatcher.dispatch({
        id: `v${index}`,
        name: 'echo',
        arguments: { value },
      });
      expect(result).toMatchObject({ ok: true, result: value });
    }
    const nothing = await dispatcher.dispatch({ id: 'none', name: 'echo', arguments: {} });
    expect(nothing.ok).toBe(true);
    expect(nothing.result).toBeUndefined();
  });

  it('rebuilds thrown errors with their custom fields, so they classify', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({
      id: 'f',
      name: 'fail',
      arguments: { message: 'upstream busy' },
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      error: 'upstream busy',
      errorCategory: 'overloaded',
    });
  });

  it('fails only the crashed call with executor_error and the exit code, then keeps serving', async () => {
    const dispatcher = setup();
    const [crashed, fine] = await dispatchTurn(
      [
        { id: 'x', name: 'exit', arguments: { code: 3 } },
        { id: 'y', name: 'echo', arguments: { value: 'still here' } },
      ],
      { dispatcher },
    );
    expect(crashed).toMatchObject({
      ok: false,
      status: 'executor_error',
      errorCategory: 'executor_error',
    });
    expect(crashed?.error).toContain('exited with code');
    expect(crashed?.result).toEqual({ exitCode: 3 });
    expect(fine).toMatchObject({ ok: true, result: 'still here' });
    expect((await dispatcher.dispatch({ id: 'z', name: 'echo', arguments: { value: 1 } })).ok).toBe(
      true,
    );
  });

  it('really stops a call that outlives its timeout, and the next call runs on a fresh worker', async () => {
    const dispatcher = setup({ maxThreads: 1 });
    const started = Date.now();
    const result = await dispatcher.dispatch({ id: 's', name: 'spin', arguments: { ms: 60_000 } });
    expect(result).toMatchObject({ ok: false, status: 'timeout', errorCategory: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pool?.stats.terminations).toBe(1);
    expect(
      (await dispatcher.dispatch({ id: 'n', name: 'echo', arguments: { value: 'next' } })).result,
    ).toBe('next');
  });

  it('stops a running call when the turn is cancelled', async () => {
    const dispatcher = setup({ maxThreads: 1 });
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 's', name: 'spin', arguments: { ms: 50 } },
      { signal: controller.signal },
    );
    controller.abort();
    expect(await pending).toMatchObject({ status: 'cancelled' });
  });

  it('fails a call that runs out of memory and replaces the worker', async () => {
    const dispatcher = setup({ maxThreads: 1, resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const result = await dispatcher.dispatch({ id: 'h', name: 'hog', arguments: {} });
    expect(result).toMatchObject({ status: 'executor_error' });
    expect((await dispatcher.dispatch({ id: 'n', name: 'echo', arguments: { value: 1 } })).ok).toBe(
      true,
    );
  }, 30_000);

  it('sends progress events back to the main thread', async () => {
    const dispatcher = setup();
    const progress: unknown[] = [];
    const allThree = deferred();
    dispatcher.events$.subscribe((event: ToolCallEvent) => {
      if (event.type !== 'tool_call_progress') return;
      progress.push(event.progress);
      if (progress.length === 3) allThree.resolve();
    });
    await dispatcher.dispatch({ id: 'p', name: 'progress', arguments: { steps: 3 } });
    await allThree.promise;
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it('delivers every call its own progress, in order, before its result, across threads', async () => {
    const dispatcher = setup({ maxThreads: 2, maxBatch: 2 });
    const seen = new Map<string, number[]>();
    const lateProgress: string[] = [];
    const finished = new Set<string>();
    dispatcher.events$.subscribe((event: ToolCallEvent) => {
      if (event.type === 'tool_call_progress') {
        if (finished.has(event.toolCallId)) lateProgress.push(event.toolCallId);
        const steps = seen.get(event.toolCallId) ?? [];
        steps.push((event.progress as { progress: number }).progress);
        seen.set(event.toolCallId, steps);
      } else if (event.type === 'tool_call_update' && event.status === 'completed') {
        finished.add(event.toolCallId);
      }
    });
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];

    const results = await dispatchTurn(
      ids.map((id) => ({ id, name: 'progress', arguments: { steps: 40 } })),
      { dispatcher, maxConcurrentTools: 6 },
    );

    expect(results.map((result) => [result.toolCallId, result.result])).toEqual(
      ids.map((id) => [id, 40]),
    );
    const oneToForty = Array.from({ length: 40 }, (_, step) => step + 1);
    for (const id of ids) expect(seen.get(id)).toEqual(oneToForty);
    expect(lateProgress).toEqual([]);
  });

  it('ignores messages a tool module posts on the worker port itself', async () => {
    const dispatcher = setup({ maxThreads: 1 });

    const results = await dispatchTurn(
      [0, 1, 2].map((value) => ({ id: `c${value}`, name: 'chatty', arguments: { value } })),
      { dispatcher, maxConcurrentTools: 3 },
    );

    expect(results.map((result) => [result.status, result.result])).toEqual([
      ['ok', 0],
      ['ok', 1],
      ['ok', 2],
    ]);
  });

  it('hands injected context to the worker as a frozen copy', async () => {
    const dispatcher = setup();
    const result = await dispatcher.dispatch({ id: 'c', name: 'read_context', arguments: {} });
    expect(result.result).toEqual({ name: 'ada', frozen: true, secrets: null });
  });

  it('batches queued calls and keeps one result per call, in order', async () => {
    const dispatcher = setup({ maxThreads: 1, maxBatch: 8 });
    const calls = Array.from({ length: 40 }, (_, index) => ({
      id: `b${index}`,
      name: 'echo',
      arguments: { value: index },
    }));
    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 40 });
    expect(results.map((result) => result.result)).toEqual(calls.map((_, index) => index));
    expect(pool!.stats.batches).toBeLessThan(40);
  });

  it('runs a batch that mixes handlers returning values and promises, in order', async () => {
    const dispatcher = setup({ maxThreads: 1, maxBatch: 8 });
    const calls = Array.from({ length: 12 }, (_, index) => ({
      id: `m${index}`,
      name: index % 3 === 1 ? 'later' : 'echo',
      arguments: { value: index },
    }));
    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 12 });
    expect(results.map((result) => [result.status, result.result])).toEqual(
      calls.map((_, index) => ['ok', index]),
    );
    expect(pool!.stats.batches).toBeLessThan(12);
  });

  it('stops one call inside a batch without losing its siblings', async () => {
    const dispatcher = setup({ maxThreads: 1, maxBatch: 8 });
    const results = await dispatchTurn(
      [
        { id: 'a', name: 'echo', arguments: { value: 'a' } },
        { id: 's', name: 'spin', arguments: { ms: 60_000 } },
        { id: 'b', name: 'echo', arguments: { value: 'b' } },
        { id: 'c', name: 'echo', arguments: { value: 'c' } },
      ],
      { dispatcher, maxConcurrentTools: 4 },
    );
    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['a', 'ok'],
      ['s', 'timeout'],
      ['b', 'ok'],
      ['c', 'ok'],
    ]);
  });

  it("fails a tool module's calls fast when they keep killing workers, instead of respawning forever", async () => {
    const dispatcher = setup({ maxThreads: 1, crashLimit: 3 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(
        (await dispatcher.dispatch({ id: `d${attempt}`, name: 'dies_at_import', arguments: {} }))
          .status,
      ).toBe('executor_error');
    }
    expect(pool?.healthy).toBe(false);
    const refused = await dispatcher.dispatch({
      id: 'after',
      name: 'dies_at_import',
      arguments: {},
    });
    expect(refused).toMatchObject({ status: 'executor_error' });
    expect(refused.error).toContain('unhealthy');
    expect(pool?.stats.crashes).toBe(3);
  });

  it('refuses new work after close with a clear error', async () => {
    const dispatcher = setup();
    await pool!.close();
    const result = await dispatcher.dispatch({ id: 'late', name: 'echo', arguments: { value: 1 } });
    expect(result).toMatchObject({ status: 'executor_error' });
    expect(result.error).toContain('closed');
    pool = undefined;
  });
});

describe('createWorkerPool options', () => {
  it.each([
    ['maxThreads', { maxThreads: 0 }],
    ['maxBatch', { maxBatch: 1.5 }],
    ['crashLimit', { crashLimit: -1 }],
    ['crashCooldownMs', { crashCooldownMs: 0 }],
    ['maxQueueWaitMs', { maxQueueWaitMs: Number.NaN }],
    ['closeTimeoutMs', { closeTimeoutMs: -5 }],
  ] as const)(
    'refuses a bad %s with an InvalidOptionError naming it, before starting threads',
    (option, options) => {
      const thrown = thrownBy(() => createWorkerPool(options));
      expect(thrown).toBeInstanceOf(InvalidOptionError);
      expect(thrown).toMatchObject({ option });
    },
  );
});
