import type { Job } from 'bullmq';
import { loadBullMq } from './load-bullmq.js';
import {
  checkQueueName,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
} from './queue-connection.js';
import { taskQueueName } from './task-queue.js';

/**
 * Runs whole tasks submitted through `createTaskQueue`, `concurrency` at once. A task whose worker
 * dies is put back for another worker up to `maxReruns` times: run it with a journal on storage
 * every worker shares (as `switchyard batch --worker` does), so that the re-run replays what
 * completed and never repeats a side effect. `close()` waits for the running tasks; before Redis
 * was ever reached it ends at once.
 */
export function startTaskWorker(options: {
  readonly connection: string;
  readonly run: (data: unknown, signal: AbortSignal) => Promise<unknown>;
  readonly queue?: string;
  readonly prefix?: string;
  readonly concurrency?: number;
  /** A task's lock: a dead worker's task is noticed after about this. Default 30 000 ms. */
  readonly lockDurationMs?: number;
  /** How often dead workers' tasks are looked for. Default 30 000 ms. */
  readonly stalledIntervalMs?: number;
  readonly maxReruns?: number;
  /**
   * Told of every error the Redis connections report (an unreachable server: `ECONNREFUSED`, about
   * once a second) while they retry, as they do for ever. Default: ignored.
   */
  readonly onError?: (error: Error) => void;
}): { readonly ready: Promise<void>; close(): Promise<void> } {
  const bullmq = loadBullMq();
  const worker = new bullmq.Worker(
    taskQueueName(checkQueueName(options.queue ?? DEFAULT_QUEUE)),
    (job: Job, _token: string | undefined, signal?: AbortSignal) =>
      options.run(job.data, signal ?? new AbortController().signal),
    {
      connection: connectionOptions(options.connection),
      prefix: checkQueueName(options.prefix ?? DEFAULT_PREFIX, 'prefix'),
      concurrency: options.concurrency ?? 1,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxReruns ?? 2,
    },
  );
  worker.on('error', options.onError ?? (() => {}));
  let connected = false;
  const ready = worker.waitUntilReady().then(() => {
    connected = true;
  });
  ready.catch(() => {});
  return {
    ready,
    // Never connected, no task can be running, and BullMQ's polite close would wait for Redis.
    close: () => worker.close(!connected),
  };
}
