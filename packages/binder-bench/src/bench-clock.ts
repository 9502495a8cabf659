import type { BudgetTimer } from 'switchyard/middleware';
import { setTimeoutTimer } from 'switchyard/middleware';

/**
 * The time the benchmark runs on: the binder layer's latency measure (`now`) and budget timer
 * (`timer`), and the waits of simulated binders (`sleep`). `virtual` marks a clock whose ms are not
 * wall-clock ms (results say so).
 */
export interface BenchClock {
  readonly now: () => number;
  readonly timer: BudgetTimer;
  /** Resolves after `ms`; an aborted signal resolves it at once (the caller went away). */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly virtual: boolean;
}

/** Wall-clock time: `performance.now`, `setTimeout`. */
export function realClock(): BenchClock {
  return {
    now: () => performance.now(),
    timer: setTimeoutTimer,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const handle = setTimeout(done, ms);
        function done(): void {
          clearTimeout(handle);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      }),
    virtual: false,
  };
}

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

/**
 * Virtual time that runs as fast as the work allows: whenever every promise chain has settled
 * (checked with `setImmediate`) and timers are pending, time jumps to the earliest one and fires it.
 * Timers due at the same ms fire in the order they were armed, so a hop whose simulated latency
 * equals its budget is a timeout (the budget timer is armed first). For in-process binders only:
 * real I/O in flight does not hold time back.
 *
 * @example
 * const clock = fakeClock();
 * await runBinderBenchmark({ clock, binders: [{ type: 'simulated', label: 'fast', latency }] });
 */
export function fakeClock(start = 0): BenchClock {
  let time = start;
  let armed = 0;
  let pumping = false;
  const pending: Pending[] = [];

  function pump(): void {
    pumping = false;
    const next = pending.shift();
    if (next === undefined) return;
    time = Math.max(time, next.at);
    next.callback();
    schedule();
  }
  function schedule(): void {
    if (pumping || pending.length === 0) return;
    pumping = true;
    setImmediate(pump);
  }
  const timer: BudgetTimer = (callback, ms) => {
    const entry: Pending = { at: time + ms, order: armed++, callback };
    const index = pending.findIndex(
      (other) => other.at > entry.at || (other.at === entry.at && other.order > entry.order),
    );
    pending.splice(index === -1 ? pending.length : index, 0, entry);
    schedule();
    return () => {
      const at = pending.indexOf(entry);
      if (at !== -1) pending.splice(at, 1);
    };
  };
  return {
    now: () => time,
    timer,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const disarm = timer(done, ms);
        function done(): void {
          disarm();
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      }),
    virtual: true,
  };
}
