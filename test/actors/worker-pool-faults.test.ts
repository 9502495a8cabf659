import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromErrorData, toErrorData } from '../../src/actors/error-data.js';
import { CancelledError, ToolTimeoutError } from '../../src/errors.js';
import { createWorkerPool, type WorkerPool } from '../../src/executors.js';
import { createDispatcher, createToolRegistry, defineTool, dispatchTurn } from '../../src/index.js';
import type { JsonValue } from '../../src/tools/json.js';

const faults = new URL('../fixtures/workers/faults.mjs', import.meta.url);
const other = new URL('../fixtures/workers/tools.mjs', import.meta.url);

function workerTool(name: string, exportName: string, extra: object = {}, module = faults) {
  return defineTool({
    name,
    description: name,
    inputSchema: { type: 'object' },
    safety: { readOnly: true },
    executor: { kind: 'worker', module, export: exportName },
    ...extra,
  });
}

const tools = [
  workerTool('echo', 'echo'),
  workerTool('other_echo', 'echo', {}, other),
  workerTool('crash_on_call', 'crashOnCall'),
  workerTool('throw_later', 'throwLater'),
  workerTool('hang', 'hang'),
  workerTool('spin_forever', 'spinForever'),
  workerTool('busy', 'busy'),
  workerTool('quick', 'echo', { timeoutMs: 300 }),
];

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function setup(options: Parameters<typeof createWorkerPool>[0] = {}) {
  pool = createWorkerPool({ maxThreads: 1, maxBatch: 8, closeTimeoutMs: 200, ...options });
  return createDispatcher({ registry: createToolRegistry(tools), executors: [pool.executor] });
}

const echo = (id: string, value: JsonValue = id) => ({ id, name: 'echo', arguments: { value } });
const crash = (id: string) => ({ id, name: 'crash_on_call', arguments: { exit: true } });

describe('worker pool fault containment', () => {
  it.each([
    ['process.exit', { id: 'x', name: 'crash_on_call', arguments: { exit: true } }],
    ['an uncaught throw', { id: 'x', name: 'throw_later', arguments: {} }],
  ])('keeps the results its batch computed before %s crashed the worker', async (_, crasher) => {
    const dispatcher = setup();
    // The first call takes the only thread; the rest leave together as one batch behind it.
    const calls = [echo('a0'), echo('a1'), echo('a2'), crasher, echo('a3'), echo('a4')];

    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 6 });

    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['a0', 'ok'],
      ['a1', 'ok'],
      ['a2', 'ok'],
      ['x', 'executor_error'],
      ['a3', 'ok'],
      ['a4', 'ok'],
    ]);
    expect(results[3]?.error).toContain('crashed');
    expect(pool?.stats.batches).toBeLessThan(6);
  });

  it('lets idle threads take the calls a hung call holds in its batch, and close() still resolves', async () => {
    const dispatcher = setup({ maxThreads: 2 });
    // Two lone calls take both threads; the hung call then leaves in a batch with five others.
    const first = [dispatcher.dispatch(echo('t0')), dispatcher.dispatch(echo('t1'))];
    const hung = dispatcher.dispatch({ id: 'h', name: 'hang', arguments: {} });
    const rest = Array.from({ length: 10 }, (_, index) => dispatcher.dispatch(echo(`r${index}`)));

    const settled = await Promise.all([...first, ...rest]);

    expect(settled.map((result) => result.status)).toEqual(Array(12).fill('ok'));
    await pool!.close();
    expect(await hung).toMatchObject({ status: 'executor_error' });
    expect((await hung).error).toContain('closed');
    pool = undefined;
  });

  it('delivers the results of the calls that finished before a hung call of their batch', async () => {
    const dispatcher = setup();
    // The first call takes the only thread; the rest leave as one batch behind it: two echoes,
    // a call that never settles, one more echo.
    const first = dispatcher.dispatch(echo('first'));
    const before = [dispatcher.dispatch(echo('a0')), dispatcher.dispatch(echo('a1'))];
    const hung = dispatcher.dispatch({ id: 'h', name: 'hang', arguments: {} });
    const behind = dispatcher.dispatch(echo('b0'));

    const settled = await Promise.all([first, ...before]);

    expect(settled.map((result) => [result.toolCallId, result.result])).toEqual([
      ['first', 'first'],
      ['a0', 'a0'],
      ['a1', 'a1'],
    ]);
    await pool!.close();
    expect((await hung).status).toBe('executor_error');
    expect((await behind).status).toBe('executor_error');
    pool = undefined;
  });

  it('delivers them too when the batch-mate blocks its thread for good', async () => {
    const dispatcher = setup();
    const first = dispatcher.dispatch(echo('first'));
    const before = [
      dispatcher.dispatch(echo('a0')),
      dispatcher.dispatch({ id: 'slow', name: 'busy', arguments: { ms: 30 } }),
    ];
    const stuck = dispatcher.dispatch({ id: 's', name: 'spin_forever', arguments: {} });

    const settled = await Promise.all([first, ...before]);

    expect(settled.map((result) => result.status)).toEqual(['ok', 'ok', 'ok']);
    await pool!.close();
    expect((await stuck).status).toBe('executor_error');
    pool = undefined;
  });

  it('runs the unstarted calls of a stalled batch before calls queued after them', async () => {
    const dispatcher = setup({ maxThreads: 2, maxBatch: 4 });
    const finished: string[] = [];
    const track = (call: ReturnType<typeof echo>) =>
      dispatcher.dispatch(call).then((result) => {
        finished.push(result.toolCallId);
        return result;
      });
    // Two lone calls take both threads; then a batch [hang, b0, b1, b2] leaves for the first
    // thread to come back, and the queue's later calls for the other.
    const lone = [track(echo('x0')), track(echo('x1'))];
    const hung = dispatcher.dispatch({ id: 'h', name: 'hang', arguments: {} });
    const behind = ['b0', 'b1', 'b2'].map((id) => track(echo(id)));
    const later = Array.from({ length: 8 }, (_, index) => track(echo(`q${index}`)));

    await Promise.all([...lone, ...behind, ...later]);

    const lastBehind = Math.max(...['b0', 'b1', 'b2'].map((id) => finished.indexOf(id)));
    expect(lastBehind).toBeLessThan(finished.indexOf('q7'));
    expect(finished.slice(lastBehind + 1).length).toBeGreaterThan(0);
    await pool!.close();
    expect((await hung).status).toBe('executor_error');
    pool = undefined;
  });

  it("counts a tool's timeoutMs from its start, not from its wait for a worker", async () => {
    const dispatcher = setup();
    const blocker = dispatcher.dispatch({ id: 'b', name: 'busy', arguments: { ms: 900 } });
    const waiting = Array.from({ length: 4 }, (_, index) =>
      dispatcher.dispatch({ id: `q${index}`, name: 'quick', arguments: { value: index } }),
    );

    const results = await Promise.all([blocker, ...waiting]);

    expect(results.map((result) => result.status)).toEqual(Array(5).fill('ok'));
  });

  it('fails calls that wait longer than maxQueueWaitMs, in the queue or behind a hung call of their batch', async () => {
    const dispatcher = setup({ maxQueueWaitMs: 600 });
    expect((await dispatcher.dispatch(echo('warm'))).status).toBe('ok');
    const lone = dispatcher.dispatch(echo('lone'));
    // Sent as one batch behind the lone call: the hung call runs, the two echoes never start.
    const hung = dispatcher.dispatch({ id: 'h', name: 'hang', arguments: {} });
    const behind = [dispatcher.dispatch(echo('b0')), dispatcher.dispatch(echo('b1'))];

    expect((await lone).status).toBe('ok');
    for (const result of await Promise.all(behind)) {
      expect(result).toMatchObject({ status: 'executor_error' });
      expect(result.error).toContain('maxQueueWaitMs');
    }
    expect(await Promise.race([hung, Promise.resolve('still running')])).toBe('still running');
  });

  it("opens one tool module's breaker after crashLimit crashes, keeps other modules running, and recovers after a probe", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const dispatcher = setup({ crashLimit: 2, crashCooldownMs: 800 });
      for (const id of ['c0', 'c1'])
        expect((await dispatcher.dispatch(crash(id))).status).toBe('executor_error');
      expect(pool?.healthy).toBe(false);

      const refused = await dispatcher.dispatch({ id: 'r', name: 'crash_on_call', arguments: {} });
      const elsewhere = await dispatcher.dispatch({
        id: 'o',
        name: 'other_echo',
        arguments: { value: 'other module' },
      });
      expect(refused).toMatchObject({ status: 'executor_error' });
      expect(refused.error).toContain('unhealthy');
      expect(elsewhere).toMatchObject({ status: 'ok', result: 'other module' });

      vi.setSystemTime(Date.now() + 799);
      expect(
        (await dispatcher.dispatch({ id: 'e', name: 'crash_on_call', arguments: {} })).error,
      ).toContain('unhealthy');
      vi.setSystemTime(Date.now() + 1);
      const probe = await dispatcher.dispatch({ id: 'p', name: 'crash_on_call', arguments: {} });
      expect(probe).toMatchObject({ status: 'ok', result: 'fine' });
      expect(pool?.healthy).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reopens the breaker when the probe crashes too', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const dispatcher = setup({ crashLimit: 1, crashCooldownMs: 600 });
      expect((await dispatcher.dispatch(crash('c0'))).status).toBe('executor_error');
      vi.setSystemTime(Date.now() + 600);
      expect((await dispatcher.dispatch(crash('probe'))).error).toContain('crashed');
      const refused = await dispatcher.dispatch({ id: 'r', name: 'crash_on_call', arguments: {} });
      expect(refused.error).toContain('unhealthy');
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails the queued calls of a module whose breaker opened fast, instead of crashing a worker each', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // One call per message: each queued call leaves alone, after the one before it crashed.
      const dispatcher = setup({ maxBatch: 1, crashLimit: 2, crashCooldownMs: 1000 });
      const results = await Promise.all(
        ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'].map((id) => dispatcher.dispatch(crash(id))),
      );

      expect(results.map((result) => (result.error ?? '').includes('unhealthy'))).toEqual([
        false,
        false,
        true,
        true,
        true,
        true,
      ]);
      expect(pool?.stats.crashes).toBe(2);
      // The cool-down runs from the crash that opened the breaker: then the module serves again.
      vi.setSystemTime(Date.now() + 1000);
      const probe = await dispatcher.dispatch({ id: 'p', name: 'crash_on_call', arguments: {} });
      expect(probe).toMatchObject({ status: 'ok', result: 'fine' });
      expect(pool?.healthy).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('errors crossing the thread boundary', () => {
  it('come back as real branded Switchyard errors with their code and fields', () => {
    const rebuilt = fromErrorData(structuredClone(toErrorData(new ToolTimeoutError('slow', 50))));
    expect(ToolTimeoutError.isInstance(rebuilt)).toBe(true);
    expect(rebuilt).toBeInstanceOf(ToolTimeoutError);
    expect(rebuilt).toMatchObject({ code: 'SY_ERR_TOOL_TIMEOUT', toolName: 'slow', timeoutMs: 50 });
    expect(CancelledError.isInstance(rebuilt)).toBe(false);
  });

  it('leave plain errors unbranded', () => {
    const rebuilt = fromErrorData(structuredClone(toErrorData(new Error('plain'))));
    expect(ToolTimeoutError.isInstance(rebuilt)).toBe(false);
    expect(rebuilt.message).toBe('plain');
  });
});

describe('worker heap limits', () => {
  it('hold when the host runs with --max-old-space-size', async () => {
    const host = fileURLToPath(new URL('../fixtures/workers/heap-limit-host.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--max-old-space-size=4096', '--import', 'tsx', host],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({ status: 'executor_error' });
  }, 60_000);
});
