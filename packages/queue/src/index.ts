// switchyard/queue: tool calls as BullMQ jobs on Redis, run by `switchyard worker` processes.
// BullMQ and ioredis are optional peers, loaded only here.
export { onQueue } from './on-queue.js';
export { DEFAULT_QUEUE, type QueueConnection } from './queue-connection.js';
export {
  createQueueExecutor,
  type QueueExecutor,
  type QueueExecutorOptions,
  type QueueExecutorStats,
} from './queue-executor.js';
export type { QueueJobData, QueueJobResult, SafetyClass } from './queue-job.js';
export {
  type QueueWorker,
  type QueueWorkerOptions,
  type QueueWorkerStats,
  startQueueWorker,
} from './queue-worker.js';
export {
  createRedisJournalStore,
  type RedisJournalStoreOptions,
} from './redis-journal-store.js';
export { createTaskQueue, type TaskQueue, type TaskResult } from './task-queue.js';
export { startTaskWorker } from './task-worker.js';
