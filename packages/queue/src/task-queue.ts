import { errorMessage } from 'switchyard/extension';
import { type JobLane, openJobLane } from './job-lane.js';
import { createRedisClient } from './load-bullmq.js';
import {
  checkQueueName,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
} from './queue-connection.js';

/** What a whole task's job came to: the worker's value, or why the queue failed it. */
export type TaskResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/** Sends whole tasks (e.g. a batch's agent runs) to task workers and waits for their results. */
export interface TaskQueue {
  /**
   * Adds the task as job `id` unless a job with that id is already in Redis (a re-run after a
   * crash then waits for the job it added before, or reads its result), and resolves with its result.
   */
  submit(id: string, data: unknown): Promise<TaskResult>;
  /** Closes the connections; at once when Redis was never reached (tasks then never settle). */
  close(): Promise<void>;
}

/** The BullMQ queue of whole tasks under a queue name. */
export function taskQueueName(queue: string): string {
  return `${queue}.tasks`;
}

/** A task id made into a BullMQ job id (no `:`, never a bare integer). */
function taskJobId(id: string): string {
  return `task~${id.replace(/[^\w.~-]/g, '_').slice(0, 200)}`;
}

/**
 * A producer of whole tasks. Unlike a tool call's job, a task's job id is its own id on purpose:
 * BullMQ adds an id only once, so submitting the same task again (a batch resumed after a crash)
 * finds the job of the earlier run instead of running the task twice.
 */
export function createTaskQueue(options: {
  readonly connection: string;
  readonly queue?: string;
  readonly prefix?: string;
  /** How often tasks not heard from for this long are looked up in Redis. Default 5000 ms. */
  readonly checkIntervalMs?: number;
  /**
   * Told of every error the Redis connections report (an unreachable server: `ECONNREFUSED`, about
   * once a second) while they retry, as they do for ever. Default: ignored.
   */
  readonly onError?: (error: Error) => void;
}): TaskQueue {
  const connection = connectionOptions(options.connection);
  const prefix = checkQueueName(options.prefix ?? DEFAULT_PREFIX, 'prefix');
  const name = taskQueueName(checkQueueName(options.queue ?? DEFAULT_QUEUE));
  const checkIntervalMs = options.checkIntervalMs ?? 5000;
  const waiting = new Map<string, (result: TaskResult) => void>();
  const settle = (jobId: string, result: TaskResult) => {
    const resolve = waiting.get(jobId);
    waiting.delete(jobId);
    resolve?.(result);
  };
  const onError = options.onError ?? ignore;
  const control = createRedisClient(connection.url);
  control.on('error', onError);
  const lane: JobLane = openJobLane({
    name,
    connection,
    prefix,
    control,
    onError,
    listener: {
      active: ignore,
      progress: ignore,
      stalled: ignore,
      completed: (jobId, value) => settle(jobId, { ok: true, value }),
      failed: (jobId, reason) => settle(jobId, { ok: false, error: reason }),
      removed: (jobId) => settle(jobId, { ok: false, error: 'the task job was removed' }),
    },
  });

  /** Settles a task from its job's stored state, when it finished (or vanished). */
  async function check(jobId: string): Promise<void> {
    const seen = await lane.inspect(jobId).catch(() => undefined);
    if (seen?.state === 'completed') settle(jobId, { ok: true, value: seen.returnvalue });
    if (seen?.state === 'failed') settle(jobId, { ok: false, error: seen.failedReason });
    if (seen?.state === 'unknown')
      settle(jobId, { ok: false, error: 'the task job vanished from Redis' });
  }
  const timer = setInterval(() => {
    for (const jobId of waiting.keys()) void check(jobId);
  }, checkIntervalMs);
  timer.unref();

  return {
    async submit(id, data) {
      const jobId = taskJobId(id);
      const result = new Promise<TaskResult>((resolve) => waiting.set(jobId, resolve));
      try {
        await lane.ready;
        await lane.queue.add('task', data, { jobId });
        // The job may have finished in an earlier run: its events are long gone.
        await check(jobId);
      } catch (error) {
        settle(jobId, {
          ok: false,
          error: `could not add the task to the queue: ${errorMessage(error)}`,
        });
      }
      return result;
    },
    async close() {
      clearInterval(timer);
      await lane.close();
      control.disconnect();
    },
  };
}

function ignore(): void {}
