// `switchyard worker` on SIGTERM, as a real child process against a real redis-server: it stops
// taking calls, lets running ones finish within --grace-ms, then cuts off the rest without losing
// them or running a side effect twice.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QueueBed, startQueueBed } from './queue-bed.js';
import { ledgerLines, saidOnStderr, until } from './worker-processes.js';

let bed: QueueBed;
beforeAll(async () => {
  bed = await startQueueBed();
}, 60_000);
afterAll(() => bed?.close(), 30_000);

const pidOf = (result: { result: unknown }) => (result.result as { pid: number }).pid;

describe('switchyard worker on SIGTERM', () => {
  it('finishes what ends within --grace-ms, hands back a re-runnable call, fails a side effect once', async () => {
    const { dispatcher, ledger } = bed;
    const first = await bed.addWorker(['--grace-ms', '3000']);
    let stderr = '';
    first.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A call that ends well within the grace limit, and two that only end when aborted.
    const quick = dispatcher.dispatch({
      id: 'quick',
      name: 'record_read',
      arguments: { key: 'quick', ms: 200 },
    });
    const reread = dispatcher.dispatch({
      id: 'reread',
      name: 'record_read',
      arguments: { key: 'reread' },
    });
    const effect = dispatcher.dispatch({
      id: 'effect',
      name: 'record',
      arguments: { key: 'effect' },
    });
    await until(
      () =>
        ['record_read quick ', 'record_read reread ', 'record effect '].every((prefix) =>
          ledgerLines(ledger).some((line) => line.startsWith(prefix)),
        ),
      15_000,
      'the three calls to start',
    );
    const exited = once(first.child, 'exit');
    const stopping = saidOnStderr(first.child, 'stopping');
    first.child.kill('SIGTERM');
    await stopping;
    // Sent after the worker stopped taking calls: it waits for another worker.
    const late = dispatcher.dispatch({ id: 'late', name: 'echo', arguments: { value: 'late' } });

    const quickResult = await quick;
    expect(quickResult).toMatchObject({ ok: true, status: 'ok', toolCallId: 'quick' });
    expect(pidOf(quickResult)).toBe(first.pid);
    const effectResult = await effect;
    expect(effectResult).toMatchObject({
      ok: false,
      status: 'in_doubt',
      errorCategory: 'in_doubt',
      toolCallId: 'effect',
    });
    expect(effectResult.error).toContain('grace limit');
    expect(effectResult.error).toContain('was not run again');
    const [code] = await exited;
    expect(code).toBe(0);
    // The re-runnable call was handed back; so was the late call if BullMQ's pending fetch got it.
    expect(stderr).toMatch(/ [12] handed back to the queue, 1 cut off\)/);
    // The cut-off handlers saw their signal abort.
    expect(ledgerLines(ledger)).toEqual(
      expect.arrayContaining([`aborted reread ${first.pid}`, `aborted effect ${first.pid}`]),
    );

    const second = await bed.addWorker();
    const rereadResult = await reread;
    expect(rereadResult).toMatchObject({ ok: true, status: 'ok', toolCallId: 'reread' });
    expect(pidOf(rereadResult)).toBe(second.pid);
    expect(pidOf(await late)).toBe(second.pid);
    const runs = (prefix: string) =>
      ledgerLines(ledger)
        .filter((line) => line.startsWith(prefix))
        .map((line) => Number(line.split(' ')[2]));
    expect(runs('record_read reread ')).toEqual([first.pid, second.pid]);
    expect(runs('record effect ')).toEqual([first.pid]);
  }, 60_000);
});
