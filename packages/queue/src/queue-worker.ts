import type { Job, Worker } from 'bullmq';
import type { ToolRegistry } from 'switchyard';
import { CancelledError, InvalidOptionError } from 'switchyard';
import type { RuntimeValues } from 'switchyard/executors';
import { createRedisClient, loadBullMq } from './load-bullmq.js';
import {
  CUT_OFF_REASON,
  cancelChannelOf,
  type QueueJobData,
  queueNameFor,
  type SafetyClass,
} from './queue-job.js';
import { type QueueWorkerOptions, queueWorkerSettings } from './queue-worker-options.js';
import { runQueueJob } from './run-queue-job.js';
import { CUT_OFF, RunningJobs } from './running-jobs.js';

export type { QueueWorkerOptions };

/** A running queue worker. */
export interface QueueWorker {
  /**
   * Resolves once the worker is connected and taking jobs; rejects with a `CancelledError` when
   * `close()` comes first. Until then the connections retry for ever, telling `onError`.
   */
  readonly ready: Promise<void>;
  readonly stats: QueueWorkerStats;
  /**
   * Stops taking jobs, lets the running ones finish for up to `graceMs` (default the worker's
   * `shutdownGraceMs`), then cuts off those still running: their handlers' signals abort, a
   * re-runnable job goes back to the wait list for another worker and a run-once job fails, so its
   * call yields `in_doubt` and never runs twice. Resolves once disconnected; at once when
   * Redis was never reached.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/** What a queue worker has done since it started. */
export interface QueueWorkerStats {
  completed: number;
  failed: number;
  cancelled: number;
  /**
   * Jobs put back in the wait list unfinished: re-runnable ones cut off at the grace limit, and
   * any job BullMQ handed over after stopping began (it had not run).
   */
  handedBack: number;
  /** Run-once jobs failed because the grace limit cut them off mid-call. */
  cutOff: number;
}

/** Job ids cancelled before this worker began them, remembered this long (a race, so short). */
const CANCEL_MEMORY = 10_000;

/**
 * Runs the tools of `registry` for dispatchers that send them to a queue (`createQueueExecutor`).
 * It takes jobs from both of the queue's safety classes: when a worker dies mid-call, BullMQ's
 * stalled-job check puts a job of a read-only or idempotent tool back in the wait list (up to
 * `maxReruns` times) and fails any other (`maxStalledCount: 0`), so a side effect never runs twice.
 * A job whose lock was lost cannot complete: its late result is refused by BullMQ. Dispatchers
 * stop running jobs through a pub/sub channel; the handler's signal aborts.
 *
 * @example
 * const worker = startQueueWorker({ registry, connection: 'redis://127.0.0.1:6379', concurrency: 8 });
 * await worker.ready;
 * // … on SIGTERM
 * await worker.close();
 */
export function startQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const settings = queueWorkerSettings(options);
  const { registry, connection, prefix, queue } = settings;
  const values: RuntimeValues = options.values ?? {};
  const onError = options.onError ?? ignore;
  const bullmq = loadBullMq();
  const stats: QueueWorkerStats = {
    completed: 0,
    failed: 0,
    cancelled: 0,
    handedBack: 0,
    cutOff: 0,
  };
  const running = new RunningJobs();
  /** Set by `close`: jobs that arrive from now on are handed back unstarted. */
  let stopping = false;
  /** Ids of jobs cancelled before they started here (oldest first). */
  const cancelledEarly = new Set<string>();
  const workers: Worker[] = [];

  async function processJob(
    job: Job,
    token: string | undefined,
    signal: AbortSignal | undefined,
    safetyClass: SafetyClass,
  ): Promise<unknown> {
    const jobId = job.id as string;
    if (cancelledEarly.delete(jobId)) {
      stats.cancelled += 1;
      throw new CancelledError('the dispatcher cancelled the call before it started');
    }
    // BullMQ may still hand over a job its pending fetch got while closing: it has not run, so
    // it goes back for another worker, whatever its tool.
    if (stopping) return handBack(job, token);
    const work = runQueueJob({
      job: { data: job.data as QueueJobData, updateProgress: (p) => job.updateProgress(p) },
      registry: registry as ToolRegistry,
      values,
      signal: signal ?? new AbortController().signal,
    });
    try {
      const result = await running.race(jobId, work);
      stats.completed += 1;
      return result;
    } catch (error) {
      if (error !== CUT_OFF) {
        stats.failed += 1;
        throw error;
      }
      if (safetyClass === 'rerun') return handBack(job, token);
      stats.cutOff += 1;
      throw new bullmq.UnrecoverableError(CUT_OFF_REASON);
    }
  }

  /** Puts a job back in the wait list under this worker's lock; BullMQ then leaves it alone. */
  async function handBack(job: Job, token: string | undefined): Promise<never> {
    stats.handedBack += 1;
    // Should Redis refuse, the lock lapses when this process exits and the stalled-job check puts
    // a re-runnable job back (a run-once job that arrives here has not run either way).
    await job.moveToWait(token).catch(ignore);
    throw new bullmq.WaitingError();
  }

  function workerFor(safetyClass: SafetyClass): Worker {
    const worker = new bullmq.Worker(
      queueNameFor(queue, safetyClass),
      (job: Job, token: string | undefined, signal?: AbortSignal) =>
        processJob(job, token, signal, safetyClass),
      {
        connection,
        prefix,
        concurrency: settings.concurrency,
        lockDuration: settings.lockDurationMs,
        stalledInterval: settings.stalledIntervalMs,
        maxStalledCount: safetyClass === 'rerun' ? settings.maxReruns : 0,
        autorun: true,
      },
    );
    worker.on('error', onError);
    // A job whose lock could not be renewed (Redis lost it, or it was failed as stalled) can no
    // longer complete: BullMQ would refuse its result. Abort its handler and free the slot.
    worker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const jobId of jobIds) worker.cancelJob(jobId, 'the job lost its lock');
    });
    return worker;
  }
  workers.push(workerFor('rerun'), workerFor('once'));

  const subscriber = createRedisClient(connection.url);
  subscriber.on('error', onError);
  subscriber.on('message', (_channel: string, jobId: string) => {
    if (workers.some((worker) => worker.cancelJob(jobId, 'cancelled by the dispatcher'))) {
      stats.cancelled += 1;
      return;
    }
    cancelledEarly.add(jobId);
    if (cancelledEarly.size > CANCEL_MEMORY) {
      cancelledEarly.delete(cancelledEarly.values().next().value as string);
    }
  });
  /** Set once every connection is up; until then there is nothing to let finish on close. */
  let connected = false;
  const connecting = (async () => {
    await subscriber.subscribe(cancelChannelOf(prefix, queue));
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    connected = true;
  })();
  let closedFirst: (error: Error) => void = ignore;
  const ready = Promise.race([
    connecting,
    new Promise<never>((_, reject) => {
      closedFirst = reject;
    }),
  ]);
  connecting.catch(ignore);
  ready.catch(ignore);

  return {
    ready,
    stats,
    async close(closeOptions = {}) {
      const graceMs = closeOptions.graceMs ?? settings.shutdownGraceMs;
      if (!(Number.isFinite(graceMs) && graceMs >= 0)) {
        throw new InvalidOptionError(
          'graceMs',
          `QueueWorker.close: graceMs must be a number ≥ 0; got ${String(graceMs)}`,
        );
      }
      stopping = true;
      if (!connected) {
        // Redis was never reached: no job can have started, and BullMQ's polite close would wait
        // for a connection. Disconnect at once.
        closedFirst(new CancelledError('the queue worker was closed before it reached Redis'));
        await Promise.allSettled(workers.map((worker) => worker.close(true)));
        subscriber.disconnect();
        return;
      }
      // BullMQ stops fetching at once and waits for the running jobs. Past the grace limit their
      // races end with CUT_OFF before their handlers are aborted, so an abort is never taken for
      // the tool's own failure; each job is then handed on, which ends the wait.
      const closing = Promise.allSettled(workers.map((worker) => worker.close()));
      const graceTimer = setTimeout(() => {
        running.cutOffAll();
        for (const worker of workers) worker.cancelAllJobs(CUT_OFF_REASON);
      }, graceMs);
      await closing;
      clearTimeout(graceTimer);
      subscriber.disconnect();
    },
  };
}

function ignore(): void {}
