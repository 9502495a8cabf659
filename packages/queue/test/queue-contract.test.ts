// The executor contract (test/support/executor-contract.ts) on the queue executor: a real
// redis-server and a real `switchyard worker` process running the contract's tools.
import { fileURLToPath } from 'node:url';
import { createDispatcher, createToolRegistry, type Dispatcher } from 'switchyard';
import { afterAll, beforeAll, describe } from 'vitest';
import { contractTools } from '../../../test/fixtures/executors/contract-tools.js';
import { executorContract } from '../../../test/support/executor-contract.js';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { createQueueExecutor, type QueueExecutor } from '../src/index.js';
import { startWorkerProcess, type WorkerProcess } from './worker-processes.js';

const CONTRACT_TOOLS = fileURLToPath(new URL('./fixtures/contract-tools.ts', import.meta.url));

let redis: RedisServer;
let worker: WorkerProcess | undefined;
let queue: QueueExecutor;
let dispatcher: Dispatcher;

beforeAll(async () => {
  redis = await startRedisServer();
  worker = await startWorkerProcess(redis.url, {}, [], CONTRACT_TOOLS);
  queue = createQueueExecutor({ connection: redis.url, checkIntervalMs: 500 });
  dispatcher = createDispatcher({
    registry: createToolRegistry(contractTools('queue')),
    executors: [queue.executor],
  });
}, 60_000);

afterAll(async () => {
  await queue?.close();
  await worker?.stop();
  await redis?.stop();
}, 30_000);

describe('dispatch on the queue executor', () => executorContract('queue', () => dispatcher));
