// The queue executor against a real redis-server and two real `switchyard worker` processes.
import { Queue } from 'bullmq';
import {
  createDispatcher,
  createToolRegistry,
  type Dispatcher,
  type ToolCallEvent,
} from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisServer } from '../../../test/support/redis-server.js';
import { createQueueExecutor, type QueueExecutor } from '../src/index.js';
import { tools } from './fixtures/queue-tools.js';
import { type QueueBed, startQueueBed } from './queue-bed.js';
import { ledgerLines, until, type WorkerProcess } from './worker-processes.js';

let bed: QueueBed;
let redis: RedisServer;
let workers: WorkerProcess[];
let queue: QueueExecutor;
let dispatcher: Dispatcher;
let ledger: string;

beforeAll(async () => {
  // A queue no worker serves: its calls wait.
  const idle = {
    ...tools[0]!,
    name: 'echo_idle',
    executor: { kind: 'queue', queue: 'idle' } as const,
  };
  bed = await startQueueBed({ workers: 2, extraTools: [idle] });
  ({ redis, workers, queue, dispatcher, ledger } = bed);
}, 60_000);
afterAll(() => bed?.close(), 30_000);

describe('the queue executor', () => {
  it('returns the handler value from a worker process', async () => {
    const result = await dispatcher.dispatch({
      id: 'e1',
      name: 'echo',
      arguments: { value: [1, { a: 'b' }] },
    });
    expect(result).toMatchObject({ ok: true, status: 'ok', executor: 'queue', toolCallId: 'e1' });
    expect((result.result as { value: unknown }).value).toEqual([1, { a: 'b' }]);
    expect(workers.map((worker) => worker.pid)).toContain((result.result as { pid: number }).pid);
  });

  it('yields one result per call across two workers, even when call ids repeat', async () => {
    const calls = Array.from({ length: 120 }, (_, index) => ({
      // Ids repeat every ten calls, as a model that numbers calls per turn would send them.
      id: `call_${index % 10}`,
      name: 'echo',
      arguments: { value: index, ms: 5 },
    }));
    const results = await Promise.all(calls.map((call) => dispatcher.dispatch(call)));
    expect(results.map((result) => (result.result as { value: number }).value)).toEqual(
      calls.map((_, index) => index),
    );
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    // Eight calls of a second each fill one worker's four slots, so both workers run some.
    const long = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        dispatcher.dispatch({
          id: `call_${index}`,
          name: 'echo',
          arguments: { value: index, ms: 1000 },
        }),
      ),
    );
    const pids = new Set(long.map((result) => (result.result as { pid: number }).pid));
    expect([...pids].sort()).toEqual(workers.map((worker) => worker.pid).sort());
  });

  it("carries the costs a worker's handler reported to the call's usage", async () => {
    const result = await dispatcher.dispatch({ id: 'k1', name: 'charge', arguments: { pages: 3 } });
    expect(result).toMatchObject({ ok: true, executor: 'queue', result: 3 });
    expect(result.usage).toEqual({ toolCostUsd: 0.75, units: 3, unit: 'page' });
  });

  it('reports progress as events before the result', async () => {
    const seen: unknown[] = [];
    const subscription = dispatcher.events$.subscribe((event: ToolCallEvent) => {
      if (event.type === 'tool_call_progress') seen.push(event.progress);
      if (event.type === 'tool_call_update' && event.status !== 'in_progress')
        seen.push('finished');
    });
    const result = await dispatcher.dispatch({
      id: 'p1',
      name: 'progress',
      arguments: { steps: 2 },
    });
    subscription.unsubscribe();
    expect(result).toMatchObject({ ok: true, result: 2 });
    expect(seen).toEqual([{ progress: 1, total: 2 }, { progress: 2, total: 2 }, 'finished']);
  });

  it('yields timeout when the call outlives timeoutMs, and the worker aborts the handler', async () => {
    const result = await dispatcher.dispatch({ id: 't1', name: 'hang', arguments: { key: 't1' } });
    expect(result).toMatchObject({ ok: false, status: 'timeout', toolCallId: 't1' });
    await until(
      () => ledgerLines(ledger).some((line) => line.startsWith('aborted t1 ')),
      10_000,
      'the abort',
    );
  });

  it('cancels a running call: cancelled result, and the worker aborts the handler', async () => {
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'record_read', arguments: { key: 'c1' } },
      { signal: controller.signal },
    );
    await until(
      () => ledgerLines(ledger).some((line) => line.startsWith('record_read c1 ')),
      10_000,
      'the start',
    );
    controller.abort();
    expect(await pending).toMatchObject({ status: 'cancelled', toolCallId: 'c1' });
    await until(
      () => ledgerLines(ledger).some((line) => line.startsWith('aborted c1 ')),
      10_000,
      'the abort',
    );
  });

  it('cancels a waiting call by removing its job, so it never runs later', async () => {
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'w1', name: 'echo_idle', arguments: { value: 1 } },
      { signal: controller.signal },
    );
    const idle = new Queue('idle.rerun', { connection: { url: redis.url } });
    await until(() => queue.stats.calls > 0, 5_000, 'the call');
    await expect
      .poll(() => idle.getJobCounts('wait').then((counts) => counts.wait), { timeout: 10_000 })
      .toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ status: 'cancelled', toolCallId: 'w1' });
    await expect
      .poll(() => idle.getJobCounts('wait').then((counts) => counts.wait), { timeout: 10_000 })
      .toBe(0);
    await idle.close();
  });

  it('fails a call no worker starts within maxQueueWaitMs, and removes its job', async () => {
    const waiting = createQueueExecutor({ connection: redis.url, maxQueueWaitMs: 200 });
    const registry = createToolRegistry([
      { ...tools[0]!, name: 'echo_idle', executor: { kind: 'queue', queue: 'idle' } },
    ]);
    const result = await createDispatcher({ registry, executors: [waiting.executor] }).dispatch({
      id: 'q1',
      name: 'echo_idle',
      arguments: { value: 1 },
    });
    expect(result).toMatchObject({ status: 'executor_error', errorCategory: 'executor_error' });
    expect(result.error).toContain('maxQueueWaitMs');
    const idle = new Queue('idle.rerun', { connection: { url: redis.url } });
    expect((await idle.getJobCounts('wait')).wait).toBe(0);
    await idle.close();
    await waiting.close();
  });
});
