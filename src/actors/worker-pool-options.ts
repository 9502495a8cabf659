import { availableParallelism } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { ResourceLimits } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { Executor } from '../dispatch/executor.js';
import { checkPositive } from '../option-checks.js';
import { moduleUrl, packageLayout } from '../package-files.js';
import { workerExecArgv } from './worker-heap-limits.js';

/** Options of `createWorkerPool`. */
export interface WorkerPoolOptions {
  /** Threads kept alive. Default 1. */
  readonly minThreads?: number;
  /** Most threads. Default: the machine's available parallelism. */
  readonly maxThreads?: number;
  /** Idle threads above `minThreads` exit after this long. Default 30 000 ms. */
  readonly idleTimeoutMs?: number;
  /**
   * V8 heap and stack limits of each worker (an out-of-memory worker fails only its own call).
   * They hold even when the host runs with `--max-old-space-size` (see `workerExecArgv`).
   */
  readonly resourceLimits?: ResourceLimits;
  /**
   * Node options of the workers. Not needed for `.ts` tool modules: Node ≥ 22.18 strips their
   * types. A module using syntax Node must transform (enums, namespaces, parameter properties)
   * needs `['--experimental-transform-types']` or `['--import', 'tsx']`. Default: none.
   */
  readonly execArgv?: readonly string[];
  /** Most queued calls sent to a worker in one message. Default 128. */
  readonly maxBatch?: number;
  /** Crashes in a row of one tool module's calls that open its breaker (fail fast). Default 5. */
  readonly crashLimit?: number;
  /**
   * How long an open breaker fails its module's calls (new and queued ones) before one probe call
   * runs, counted from the last crash of its calls. Default 30 000 ms.
   */
  readonly crashCooldownMs?: number;
  /**
   * Most time a call waits for a worker (in the pool's queue, or in its batch behind other calls)
   * before it fails with `executor_error`. A tool's `timeoutMs` counts only its execution. Default:
   * no bound.
   */
  readonly maxQueueWaitMs?: number;
  /** How long `close()` waits for running calls before it terminates their workers. Default 10 000 ms. */
  readonly closeTimeoutMs?: number;
}

/** A pool of worker threads running tool handlers, exposed as an executor. */
export interface WorkerPool {
  /** Pass to `createDispatcher({ executors: [pool.executor] })`. */
  readonly executor: Executor;
  /** False while some tool module's crash breaker is open (its calls fail fast). */
  readonly healthy: boolean;
  readonly stats: Readonly<{
    calls: number;
    batches: number;
    crashes: number;
    terminations: number;
  }>;
  /**
   * Refuses new calls and waits for running ones, at most `closeTimeoutMs`; then terminates the
   * workers still running (their calls fail with `executor_error`). Always resolves.
   */
  close(): Promise<void>;
}

/** The worker entry module, and the Node options it needs when run from TypeScript sources. */
function entryUrl(): { url: string; execArgv: readonly string[] } {
  // Running from TypeScript sources (tests, tsx): the workers need tsx too.
  return {
    url: moduleUrl('actors/worker-entry').href,
    execArgv: packageLayout().fromSources ? ['--import', 'tsx'] : [],
  };
}

/** The pool's own settings, checked: each bad one throws an `InvalidOptionError` naming it. */
export function poolSettings(options: WorkerPoolOptions) {
  const count = (option: string, value: unknown) =>
    checkPositive('createWorkerPool', option, value, { integer: true });
  return {
    maxThreads: count('maxThreads', options.maxThreads ?? availableParallelism()),
    maxBatch: count('maxBatch', options.maxBatch ?? 128),
    crashLimit: count('crashLimit', options.crashLimit ?? 5),
    crashCooldownMs: count('crashCooldownMs', options.crashCooldownMs ?? 30_000),
    closeTimeoutMs: count('closeTimeoutMs', options.closeTimeoutMs ?? 10_000),
    maxQueueWaitMs:
      options.maxQueueWaitMs === undefined
        ? undefined
        : count('maxQueueWaitMs', options.maxQueueWaitMs),
  };
}

/** Piscina's options for a pool of `maxThreads` threads. */
export function piscinaOptions(
  options: WorkerPoolOptions,
  maxThreads: number,
): NonNullable<ConstructorParameters<typeof Piscina>[0]> {
  const entry = entryUrl();
  return {
    filename: entry.url,
    minThreads: Math.min(options.minThreads ?? 1, maxThreads),
    maxThreads,
    idleTimeout: options.idleTimeoutMs ?? 30_000,
    execArgv: workerExecArgv(options.execArgv ?? entry.execArgv, options.resourceLimits ?? {}),
    // Piscina's run and wait time histograms cost ~1.5 µs per task (clock reads and two records)
    // and nothing reads them: results carry their own execution time.
    recordTiming: false,
    ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
  };
}

/**
 * Closes Piscina, waiting for running tasks at most `timeoutMs`; then terminates the workers still
 * running (their tasks reject). Always resolves.
 */
export async function closeWithin(piscina: Piscina, timeoutMs: number): Promise<void> {
  const drained = piscina.close().then(
    () => true,
    () => true,
  );
  const timer = new AbortController();
  const inTime = await Promise.race([
    drained,
    delay(timeoutMs, false, { signal: timer.signal }).catch(() => false),
  ]);
  timer.abort();
  if (!inTime) await piscina.destroy().catch(() => {});
}
