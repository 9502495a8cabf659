import { describe, expect, it } from 'vitest';
import { CUT_OFF, RunningJobs } from '../src/running-jobs.js';

/** A promise and the functions that settle it. */
function gate<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('RunningJobs', () => {
  it("settles with the job's own work when it ends before any cut-off", async () => {
    const running = new RunningJobs();
    const work = gate<string>();
    const raced = running.race('a', work.promise);
    work.resolve('done');
    expect(await raced).toBe('done');
    running.cutOffAll();
  });

  it('rejects every running job with CUT_OFF, and its work failing later is no unhandled rejection', async () => {
    const running = new RunningJobs();
    const first = gate<string>();
    const second = gate<string>();
    const races = [running.race('a', first.promise), running.race('b', second.promise)];
    running.cutOffAll();
    // The handlers see their signals abort after the cut-off; their failure must go nowhere.
    first.reject(new Error('aborted'));
    second.reject(new Error('aborted'));
    for (const raced of races) await expect(raced).rejects.toBe(CUT_OFF);
  });

  it("passes the job's own failure on when it comes first", async () => {
    const running = new RunningJobs();
    const work = gate<string>();
    const raced = running.race('a', work.promise);
    work.reject(new Error('tool failed'));
    await expect(raced).rejects.toThrow('tool failed');
  });
});
