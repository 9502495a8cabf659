// What a dispatcher sees when queue workers die mid-call or Redis restarts: still one result per
// call, a re-run only for read-only tools, and never a second run of a side effect.
import { Queue } from 'bullmq';
import type { Dispatcher, ProposedCall } from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisServer } from '../../../test/support/redis-server.js';
import type { QueueExecutor } from '../src/index.js';
import { type QueueBed, startQueueBed } from './queue-bed.js';
import { ledgerLines, until, type WorkerProcess } from './worker-processes.js';

let bed: QueueBed;
let redis: RedisServer;
let workers: WorkerProcess[];
let queue: QueueExecutor;
let dispatcher: Dispatcher;
let ledger: string;

beforeAll(async () => {
  bed = await startQueueBed({ workers: 2 });
  ({ redis, workers, queue, dispatcher, ledger } = bed);
}, 60_000);
afterAll(() => bed?.close(), 30_000);

const addWorker = () => bed.addWorker();

/** The pid of the worker whose ledger line starts with `prefix`, once there is one. */
async function runningOn(prefix: string): Promise<number> {
  await until(() => ledgerLines(ledger).some((line) => line.startsWith(prefix)), 15_000, prefix);
  const line = ledgerLines(ledger).find((entry) => entry.startsWith(prefix)) as string;
  return Number(line.split(' ')[2]);
}

function workerWith(pid: number): WorkerProcess {
  return workers.find((worker) => worker.pid === pid) as WorkerProcess;
}

describe('queue workers killed mid-call', () => {
  it('re-runs a read-only call on a live worker when its worker is killed (kill -9)', async () => {
    const pending = dispatcher.dispatch({
      id: 'r1',
      name: 'record_read',
      arguments: { key: 'r1' },
    });
    const first = await runningOn('record_read r1 ');
    const replacement = addWorker();
    await workerWith(first).kill();
    await replacement;
    const result = await pending;
    expect(result).toMatchObject({ ok: true, status: 'ok', toolCallId: 'r1' });
    const ranOn = (result.result as { pid: number }).pid;
    expect(ranOn).not.toBe(first);
    const runs = ledgerLines(ledger).filter((line) => line.startsWith('record_read r1 '));
    expect(runs.map((line) => Number(line.split(' ')[2]))).toEqual([first, ranOn]);
  });

  it('yields in_doubt, never a second run, when a side-effecting call loses its worker', async () => {
    const pending = dispatcher.dispatch({ id: 's1', name: 'record', arguments: { key: 's1' } });
    const first = await runningOn('record s1 ');
    const replacement = addWorker();
    await workerWith(first).kill();
    await replacement;
    const result = await pending;
    expect(result).toMatchObject({
      ok: false,
      status: 'in_doubt',
      errorCategory: 'in_doubt',
      toolCallId: 's1',
    });
    expect(result.error).toContain('was not run again');
    // The job failed in Redis, so no worker can take it: the ledger's one line is final.
    expect(ledgerLines(ledger).filter((line) => line.startsWith('record s1 '))).toHaveLength(1);
  });
});

describe('a worker that stalls and comes back', () => {
  it('cannot complete the job another worker re-ran: its late result is refused', async () => {
    const pending = dispatcher.dispatch({
      id: 'l1',
      name: 'record_read',
      arguments: { key: 'l1', ms: 1500 },
    });
    const frozen = await runningOn('record_read l1 ');
    process.kill(frozen, 'SIGSTOP');
    const result = await pending;
    process.kill(frozen, 'SIGCONT');
    const ranOn = (result.result as { pid: number }).pid;
    expect(result).toMatchObject({ ok: true, toolCallId: 'l1' });
    expect(ranOn).not.toBe(frozen);
    // The thawed worker's handler ends (its timer is overdue, or it is aborted for the lost lock);
    // either way the job keeps the result of the worker that held the lock.
    await until(
      () =>
        ledgerLines(ledger).some(
          (line) => line === `done l1 ${frozen}` || line === `aborted l1 ${frozen}`,
        ),
      10_000,
      'the thawed worker',
    );
    const jobs = new Queue('switchyard.rerun', { connection: { url: redis.url } });
    const [job] = (await jobs.getJobs(['completed'])).filter((entry) => entry.data.callId === 'l1');
    expect(job?.returnvalue).toEqual({ ok: true, value: { key: 'l1', pid: ranOn } });
    await jobs.close();
  });
});

describe('a Redis restart mid-run', () => {
  it('gives every call one result (its own, or in_doubt for a lost job) and recovers', async () => {
    const live = workers.filter(
      (worker) => worker.child.exitCode === null && worker.child.signalCode === null,
    );
    expect(live.length).toBeGreaterThan(0);
    const calls = Array.from(
      { length: 30 },
      (_, index): ProposedCall =>
        index % 3 === 0
          ? { id: `x${index}`, name: 'record', arguments: { key: `x${index}`, ms: 60_000 } }
          : { id: `x${index}`, name: 'echo', arguments: { value: index, ms: 60_000 } },
    );
    const queuedBefore = queue.stats.queued;
    const pending = calls.map((call) => dispatcher.dispatch(call));
    // Every job is in Redis (a job added after the restart would simply run) and some run.
    await until(() => queue.stats.queued === queuedBefore + calls.length, 15_000, 'the jobs');
    await until(
      () => ledgerLines(ledger).some((line) => line.startsWith('record x')),
      15_000,
      'a running call',
    );
    await redis.stop();
    await redis.start();
    const results = await Promise.all(pending);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
    for (const result of results) {
      expect(result).toMatchObject({ status: 'in_doubt', errorCategory: 'in_doubt' });
      expect(result.error).toContain('vanished from Redis');
    }
    // Side effects that started ran once; none ran again after the restart.
    const records = ledgerLines(ledger).filter((line) => line.startsWith('record x'));
    expect(new Set(records.map((line) => line.split(' ')[1])).size).toBe(records.length);
    // The queue works again once Redis is back.
    const after = await dispatcher.dispatch({
      id: 'after',
      name: 'echo',
      arguments: { value: 'back' },
    });
    expect(after).toMatchObject({ ok: true, status: 'ok' });
  });
});
