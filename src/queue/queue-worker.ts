import type { Job, Worker } from 'bullmq';
import type { RuntimeValues } from '../dispatch/executor.js';
import { CancelledError } from '../errors.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { createRedisClient, loadBullMq } from './load-bullmq.js';
import { cancelChannelOf, type QueueJobData, queueNameFor, type SafetyClass } from './queue-job.js';
import { type QueueWorkerOptions, queueWorkerSettings } from './queue-worker-options.js';
import { runQueueJob } from './run-queue-job.js';

export type { QueueWorkerOptions };

/** A running queue worker. */
export interface QueueWorker {
  /** Resolves once the worker is connected and taking jobs. */
  readonly ready: Promise<void>;
  readonly stats: { completed: number; failed: number; cancelled: number };
  /** Stops taking jobs, lets the running ones finish, disconnects. */
  close(): Promise<void>;
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
  const bullmq = loadBullMq();
  const stats = { completed: 0, failed: 0, cancelled: 0 };
  /** Ids of jobs cancelled before they started here (oldest first). */
  const cancelledEarly = new Set<string>();
  const workers: Worker[] = [];

  async function processJob(job: Job, signal: AbortSignal | undefined): Promise<unknown> {
    if (job.id !== undefined && cancelledEarly.delete(job.id)) {
      stats.cancelled += 1;
      throw new CancelledError('the dispatcher cancelled the call before it started');
    }
    try {
      const result = await runQueueJob({
        job: { data: job.data as QueueJobData, updateProgress: (p) => job.updateProgress(p) },
        registry: registry as ToolRegistry,
        values,
        signal: signal ?? new AbortController().signal,
      });
      stats.completed += 1;
      return result;
    } catch (error) {
      stats.failed += 1;
      throw error;
    }
  }

  function workerFor(safetyClass: SafetyClass): Worker {
    const worker = new bullmq.Worker(
      queueNameFor(queue, safetyClass),
      (job: Job, _token: string | undefined, signal?: AbortSignal) => processJob(job, signal),
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
    worker.on('error', ignore);
    // A job whose lock could not be renewed (Redis lost it, or it was failed as stalled) can no
    // longer complete: BullMQ would refuse its result. Abort its handler and free the slot.
    worker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const jobId of jobIds) worker.cancelJob(jobId, 'the job lost its lock');
    });
    return worker;
  }
  workers.push(workerFor('rerun'), workerFor('once'));

  const subscriber = createRedisClient(connection.url);
  subscriber.on('error', ignore);
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
  const ready = (async () => {
    await subscriber.subscribe(cancelChannelOf(prefix, queue));
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  })();
  ready.catch(ignore);

  return {
    ready,
    stats,
    async close() {
      await ready.catch(ignore);
      await Promise.allSettled(workers.map((worker) => worker.close()));
      subscriber.disconnect();
    },
  };
}

function ignore(): void {}
