// The executor contract (test/support/executor-contract.ts) on the inline executor and the worker
// pool; test/queue/queue-contract.test.ts runs it on the queue executor.
import { afterAll, describe } from 'vitest';
import { createWorkerPool, type Executor } from '../../src/executors.js';
import { createDispatcher, createToolRegistry, defineTool } from '../../src/index.js';
import { type ContractExecutor, contractTools } from '../fixtures/executors/contract-tools.js';
import { executorContract } from '../support/executor-contract.js';

const pool = createWorkerPool({ maxThreads: 2 });
afterAll(() => pool.close());

function registryOn(kind: ContractExecutor) {
  return createToolRegistry(contractTools(kind).map((spec) => defineTool(spec)));
}

const inline = createDispatcher({ registry: registryOn('inline') });
const worker = createDispatcher({
  registry: registryOn('worker'),
  executors: [pool.executor as Executor],
});

describe('dispatch on the inline executor', () => executorContract('inline', () => inline));
describe('dispatch on the worker executor', () => executorContract('worker', () => worker));
