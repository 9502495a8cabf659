// `switchyard/executors`: where calls run. The inline executor is the dispatcher's default; the
// worker pool (Piscina) runs CPU-heavy tools on threads and is loaded only from this subpath.

export { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './actors/worker-pool.js';
export type {
  ExecutionOutcome,
  ExecutionRequest,
  Executor,
  ExecutorFailure,
  RuntimeValues,
} from './dispatch/executor.js';
export { createInlineExecutor } from './dispatch/inline-executor.js';
