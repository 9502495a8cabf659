// A Redis that keeps an append-only file, killed (SIGKILL) and restarted on the same port and
// directory while calls wait and run: the dispatcher and the `switchyard worker` processes carry
// on, the running calls keep their locks, every call yields one result, and a side-effecting call
// never runs twice.

import type { ProposedCall } from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { type QueueBed, startQueueBed } from './queue-bed.js';
import { ledgerLines, until } from './worker-processes.js';

let bed: QueueBed;
beforeAll(async () => {
  bed = await startQueueBed({
    workers: 2,
    // Longer than the outage plus BullMQ's reconnect back-off (1 s at least): the running jobs
    // keep their locks, which the append-only file keeps too.
    workerArgs: ['--lock-ms', '10000'],
    redis: { appendOnlyDir: tempDir('switchyard-redis-aof-') },
  });
}, 60_000);
afterAll(() => bed?.close(), 30_000);

/** The pids of the ledger lines that start with `prefix`, in order. */
function runsOf(prefix: string): number[] {
  return ledgerLines(bed.ledger)
    .filter((line) => line.startsWith(prefix))
    .map((line) => Number(line.split(' ')[2]));
}

describe('a persistent Redis killed and restarted mid-run', () => {
  it('gives every call one result, keeps running calls going, and never runs a side effect twice', async () => {
    const { dispatcher, queue, redis } = bed;
    // Eight run at once (two workers, four slots per safety class each); the rest wait in Redis.
    const calls = Array.from(
      { length: 24 },
      (_, index): ProposedCall =>
        index % 2 === 0
          ? { id: `w${index}`, name: 'record', arguments: { key: `w${index}`, ms: 400 } }
          : { id: `r${index}`, name: 'record_read', arguments: { key: `r${index}`, ms: 400 } },
    );
    const pending = calls.map((call) => dispatcher.dispatch(call));
    await until(() => queue.stats.queued === calls.length, 15_000, 'the jobs in Redis');
    await until(() => runsOf('record w').length > 0, 15_000, 'a running side effect');
    await redis.stop();
    await redis.start();

    const results = await Promise.all(pending);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
    for (const [index, result] of results.entries()) {
      const call = calls[index] as ProposedCall;
      const key = (call.arguments as { key: string }).key;
      const runs = runsOf(`${call.name} ${key} `);
      if (call.name === 'record_read') {
        expect(result, `${key}: ${result.error}`).toMatchObject({ ok: true, status: 'ok' });
        expect(runs.length, key).toBeGreaterThan(0);
        continue;
      }
      // A run-once call keeps its value after its one run. The exception is a job whose worker was
      // taking it as Redis died: the reply that handed it over is lost, so no worker runs it and
      // its lock lapses; it then ends as a dead worker's job would, in_doubt, never run.
      if (result.ok) expect(runs, key).toEqual([(result.result as { pid: number }).pid]);
      else {
        expect(result.error, key).toContain('was not run again');
        expect(runs.length, key).toBeLessThanOrEqual(1);
      }
    }
    // Nothing vanished with the restart, and the calls that ran kept their own results.
    expect(queue.stats.lost).toBe(0);
    expect(results.filter((result) => result.ok).length).toBeGreaterThan(calls.length / 2);

    const after = await dispatcher.dispatch({ id: 'after', name: 'echo', arguments: { value: 1 } });
    expect(after).toMatchObject({ ok: true, status: 'ok' });
  }, 90_000);
});
