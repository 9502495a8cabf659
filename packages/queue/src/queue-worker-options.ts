import { InvalidOptionError } from 'switchyard';
import type { RuntimeValues } from 'switchyard/executors';
import { ToolRegistry } from 'switchyard/tools';
import {
  checkQueueName,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
  type QueueConnection,
} from './queue-connection.js';

/** Options of `startQueueWorker`. */
export interface QueueWorkerOptions {
  /** The tools this worker runs (their handlers run here, inline). Required. */
  readonly registry: ToolRegistry;
  /** Where Redis is: `redis://[user:password@]host:port[/db]`. Required. */
  readonly connection: QueueConnection;
  /** The queue to take jobs from. Default `switchyard`. */
  readonly queue?: string;
  /** BullMQ's key prefix. Default `bull`. */
  readonly prefix?: string;
  /** Calls run at once per safety class (re-runnable, run-once). Default 4. */
  readonly concurrency?: number;
  /**
   * How long a job's lock lasts without renewal (renewed every half of it): a worker that dies
   * is noticed after about this long plus `stalledIntervalMs`. Default 30 000 ms. Keep CPU-bound
   * handlers' synchronous stretches well below it, or run them in a worker pool.
   */
  readonly lockDurationMs?: number;
  /** How often stalled jobs are looked for. Default 30 000 ms. */
  readonly stalledIntervalMs?: number;
  /** Times a job of a read-only or idempotent tool is put back after its worker died. Default 2. */
  readonly maxReruns?: number;
  /**
   * How long `close()` lets running calls finish before cutting them off (re-runnable jobs go back
   * to the wait list, run-once jobs fail: their calls yield `in_doubt`). Default 30 000 ms.
   */
  readonly shutdownGraceMs?: number;
  /** Context, stores and secrets handed to the tools that ask for them (never sent through Redis). */
  readonly values?: RuntimeValues;
  /**
   * Told of every error BullMQ and the Redis connections report while they retry, as they do for
   * ever (an unreachable server: `ECONNREFUSED`, about once a second). Default: ignored.
   */
  readonly onError?: (error: Error) => void;
}

function integer(name: string, value: number | undefined, fallback: number, min: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min) {
    throw new InvalidOptionError(
      name,
      `startQueueWorker: ${name} must be an integer ≥ ${min}; got ${String(chosen)}`,
    );
  }
  return chosen;
}

/** Options with defaults applied and checked. */
export function queueWorkerSettings(options: QueueWorkerOptions) {
  if (!(options?.registry instanceof ToolRegistry)) {
    throw new InvalidOptionError('registry', 'startQueueWorker: registry must be a ToolRegistry');
  }
  return {
    registry: options.registry,
    connection: connectionOptions(options.connection),
    queue: checkQueueName(options.queue ?? DEFAULT_QUEUE),
    prefix: checkQueueName(options.prefix ?? DEFAULT_PREFIX, 'prefix'),
    concurrency: integer('concurrency', options.concurrency, 4, 1),
    lockDurationMs: integer('lockDurationMs', options.lockDurationMs, 30_000, 100),
    stalledIntervalMs: integer('stalledIntervalMs', options.stalledIntervalMs, 30_000, 100),
    maxReruns: integer('maxReruns', options.maxReruns, 2, 0),
    shutdownGraceMs: integer('shutdownGraceMs', options.shutdownGraceMs, 30_000, 0),
  };
}
