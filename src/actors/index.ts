export {
  type ActorOptions,
  type ActorRef,
  ActorStoppedError,
  createActor,
  type SupervisorDirective,
} from './actor.js';
export { FifoQueue } from './fifo-queue.js';
export { createJsonlWriter, type JsonlWriter, MAX_CHARS_PER_WRITE } from './jsonl-writer.js';
export {
  type LoopCheck,
  LoopDetector,
  type LoopThresholds,
  type LoopVerdict,
} from './loop-detector.js';
export {
  createSessionActor,
  type SessionActor,
  type SessionActorOptions,
  type SessionCounters,
  type SessionMessage,
  type SessionSnapshot,
} from './session-actor.js';
export { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
