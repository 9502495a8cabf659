import { InvalidOptionError } from 'switchyard';
import {
  checkQueueName,
  connectionOptions,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
  type QueueConnection,
} from './queue-connection.js';

/** Options of `createQueueExecutor`. */
export interface QueueExecutorOptions {
  /** Where Redis is: `redis://[user:password@]host:port[/db]`. Required. */
  readonly connection: QueueConnection;
  /** The queue of tools that name none (`executor: { kind: 'queue' }`). Default `switchyard`. */
  readonly queue?: string;
  /** BullMQ's key prefix. Default `bull`. */
  readonly prefix?: string;
  /**
   * Fails a call (`executor_error`) whose job no worker started within this many ms; the job is
   * removed first, so it never runs later. Default: wait as long as it takes.
   */
  readonly maxQueueWaitMs?: number;
  /**
   * How often calls not heard from for this long are looked up in Redis (a missed event, a job
   * lost to a Redis restart). Default 5000 ms.
   */
  readonly checkIntervalMs?: number;
}

/** Options with defaults applied and checked. */
export function queueExecutorSettings(options: QueueExecutorOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('options', 'createQueueExecutor: options must be an object');
  }
  const positive = (name: 'maxQueueWaitMs' | 'checkIntervalMs', fallback?: number) => {
    const value = options[name] ?? fallback;
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new InvalidOptionError(
        name,
        `createQueueExecutor: ${name} must be a number > 0; got ${String(value)}`,
      );
    }
    return value;
  };
  return {
    connection: connectionOptions(options.connection),
    queue: checkQueueName(options.queue ?? DEFAULT_QUEUE),
    prefix: checkQueueName(options.prefix ?? DEFAULT_PREFIX, 'prefix'),
    maxQueueWaitMs: positive('maxQueueWaitMs'),
    checkIntervalMs: positive('checkIntervalMs', 5000) as number,
  };
}
