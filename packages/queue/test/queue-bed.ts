// What most queue tests stand on: their own redis-server, `switchyard worker` processes running
// the queue tools (test/fixtures/queue/queue-tools.ts) and a dispatcher that sends those tools to
// the queue, with a ledger file where the tools note their runs.
import { join } from 'node:path';
import { createDispatcher, createToolRegistry, type Dispatcher } from 'switchyard';
import type { AnyToolSpec } from 'switchyard/tools';
import {
  type RedisServer,
  type RedisServerOptions,
  startRedisServer,
} from '../../../test/support/redis-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createQueueExecutor, type QueueExecutor } from '../src/index.js';
import { tools } from './fixtures/queue-tools.js';
import { startWorkerProcess, type WorkerProcess } from './worker-processes.js';

/** A started bed; `close` ends the executor, kills every worker it knows and stops Redis. */
export interface QueueBed {
  readonly redis: RedisServer;
  readonly queue: QueueExecutor;
  readonly dispatcher: Dispatcher;
  /** The workers started so far (`addWorker` appends). */
  readonly workers: WorkerProcess[];
  /** The file the queue tools append their runs to. */
  readonly ledger: string;
  /** Starts one more worker process (extra command-line arguments after the defaults). */
  addWorker(extra?: string[]): Promise<WorkerProcess>;
  close(): Promise<void>;
}

/**
 * Starts Redis (with `redis` options), `workers` worker processes (with `workerArgs`) and a queue
 * executor that looks for missed events every 500 ms; `extraTools` join the queue tools on the
 * dispatcher's side.
 */
export async function startQueueBed(
  options: {
    readonly workers?: number;
    /** Command-line arguments for those workers, after the defaults (`--lock-ms 1000` …). */
    readonly workerArgs?: string[];
    readonly redis?: RedisServerOptions;
    readonly extraTools?: readonly AnyToolSpec[];
  } = {},
): Promise<QueueBed> {
  const redis = await startRedisServer(options.redis);
  const ledger = join(tempDir('switchyard-queue-'), 'ledger.txt');
  const workers: WorkerProcess[] = [];
  const addWorker = async (extra: string[] = []) => {
    const worker = await startWorkerProcess(redis.url, { LEDGER: ledger }, extra);
    workers.push(worker);
    return worker;
  };
  await Promise.all(
    Array.from({ length: options.workers ?? 0 }, () => addWorker(options.workerArgs)),
  );
  const queue = createQueueExecutor({ connection: redis.url, checkIntervalMs: 500 });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([...tools, ...(options.extraTools ?? [])]),
    executors: [queue.executor],
  });
  return {
    redis,
    queue,
    dispatcher,
    workers,
    ledger,
    addWorker,
    async close() {
      await queue.close();
      await Promise.all(workers.map((worker) => worker.kill()));
      await redis.stop();
    },
  };
}
