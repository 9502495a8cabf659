import { InvalidOptionError } from 'switchyard';

/** Where Redis is: a `redis://` or `rediss://` URL (user, password and db number included). */
export type QueueConnection = string;

/** The default name of the queue that tools declared with `executor: { kind: 'queue' }` use. */
export const DEFAULT_QUEUE = 'switchyard';

/** The default BullMQ key prefix. */
export const DEFAULT_PREFIX = 'bull';

/**
 * Checks a Redis URL and returns BullMQ's connection options for it. Every connection retries
 * forever (`maxRetriesPerRequest: null`), as BullMQ requires of workers and event readers: a Redis
 * restart pauses the queue instead of failing its readers.
 * @throws InvalidOptionError naming `option` for anything but a redis URL.
 */
export function connectionOptions(
  connection: unknown,
  option = 'connection',
): { readonly url: string; readonly maxRetriesPerRequest: null } {
  if (typeof connection !== 'string' || !/^rediss?:\/\/[^\s]+$/.test(connection)) {
    throw new InvalidOptionError(
      option,
      `${option} must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379); got ${JSON.stringify(connection)}`,
    );
  }
  return { url: connection, maxRetriesPerRequest: null };
}

/** Checks a queue name: BullMQ keys join names with `:`, so names keep to a safe alphabet. */
export function checkQueueName(name: unknown, option = 'queue'): string {
  if (typeof name !== 'string' || !/^[\w.-]{1,100}$/.test(name)) {
    throw new InvalidOptionError(
      option,
      `${option} must be 1–100 letters, digits, "_", "-" or "."; got ${JSON.stringify(name)}`,
    );
  }
  return name;
}
