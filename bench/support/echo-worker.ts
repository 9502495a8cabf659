/** The trivial worker tool of `worker-overhead.bench.ts`, on Switchyard's pool and on raw Piscina. */
import { Piscina } from 'piscina';
import {
  createDispatcher,
  createToolRegistry,
  createWorkerPool,
  type Dispatcher,
  defineTool,
  type WorkerPool,
} from './switchyard.js';

const module = new URL('./cpu-tools.mjs', import.meta.url);

/** A dispatcher whose one tool, `echo`, returns `arguments.value` from a worker of its own pool. */
export function createEchoDispatcher(threads: number): {
  dispatcher: Dispatcher;
  pool: WorkerPool;
} {
  const pool = createWorkerPool({ minThreads: threads, maxThreads: threads });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([
      defineTool({
        name: 'echo',
        description: 'echo',
        inputSchema: {
          type: 'object',
          properties: { value: { type: 'integer' } },
          required: ['value'],
        },
        safety: { readOnly: true },
        executor: { kind: 'worker', module, export: 'echo' },
      }),
    ]),
    executors: [pool.executor],
  });
  return { dispatcher, pool };
}

/** A raw Piscina pool whose task `{ kind: 'echo', value }` returns `value`. */
export function createRawEcho(threads: number, recordTiming = true): Piscina {
  return new Piscina({
    filename: module.href,
    minThreads: threads,
    maxThreads: threads,
    recordTiming,
  });
}
