export {
  type ActorOptions,
  type ActorRef,
  ActorStoppedError,
  createActor,
  type SupervisorDirective,
} from './actor.js';
export { FifoQueue } from './fifo-queue.js';
export { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
