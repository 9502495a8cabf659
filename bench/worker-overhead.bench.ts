/**
 * Per-call overhead of a trivial worker tool. One call at a time: the whole dispatch path plus the
 * pool against a raw `piscina.run()` (target ≤ 1.2×). Many queued: a turn of 2000 calls against
 * one raw `run()` per call (target ≥ 5× better, by sending queued calls several per message).
 *
 * Run: npm run bench:one bench/worker-overhead.bench.ts
 */
import { Piscina } from 'piscina';
import { Bench } from 'tinybench';
import { printRatios } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  createWorkerPool,
  defineTool,
  dispatchTurn,
} from './support/switchyard.js';

const SEQUENTIAL = 200;
const QUEUED = 2000;
const module = new URL('./support/cpu-tools.mjs', import.meta.url);
const THREADS = Number(process.env.THREADS ?? 1);
const pool = createWorkerPool({ minThreads: THREADS, maxThreads: THREADS });
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
const raw = new Piscina({ filename: module.href, minThreads: THREADS, maxThreads: THREADS });

const oneAtATime = new Bench({
  name: `one call at a time (${SEQUENTIAL} sequential calls; per call)`,
  time: 2000,
  warmup: true,
});
oneAtATime
  .add('raw piscina.run() (baseline)', async () => {
    for (let value = 0; value < SEQUENTIAL; value += 1) await raw.run({ kind: 'echo', value });
  })
  .add('dispatch to the worker pool', async () => {
    for (let value = 0; value < SEQUENTIAL; value += 1) {
      const result = await dispatcher.dispatch({ id: 'e', name: 'echo', arguments: { value } });
      if (!result.ok) throw new Error(result.error ?? 'failed');
    }
  });
await oneAtATime.run();
const sequential = printRatios(oneAtATime, 'raw piscina.run() (baseline)', SEQUENTIAL, 'µs');
const sequentialRatio =
  (sequential.get('dispatch to the worker pool') ?? Number.NaN) /
  (sequential.get('raw piscina.run() (baseline)') ?? Number.NaN);
console.log(
  `one at a time: ${sequentialRatio.toFixed(2)}× raw piscina.run(); target ≤ 1.2×: ${sequentialRatio <= 1.2 ? 'met' : 'MISSED'}`,
);

const calls = Array.from({ length: QUEUED }, (_, value) => ({
  id: `q${value}`,
  name: 'echo',
  arguments: { value },
}));
const manyQueued = new Bench({
  name: `many queued (${QUEUED} calls at once; per call)`,
  time: 2000,
  warmup: true,
});
manyQueued
  .add('one raw piscina.run() per call (baseline)', async () => {
    await Promise.all(calls.map((_, value) => raw.run({ kind: 'echo', value })));
  })
  .add('dispatchTurn to the worker pool', async () => {
    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: QUEUED });
    if (results.length !== QUEUED) throw new Error('lost results');
  });
await manyQueued.run();
const queued = printRatios(manyQueued, 'one raw piscina.run() per call (baseline)', QUEUED, 'µs');
const gain =
  (queued.get('one raw piscina.run() per call (baseline)') ?? Number.NaN) /
  (queued.get('dispatchTurn to the worker pool') ?? Number.NaN);
console.log(
  `many queued: ${gain.toFixed(2)}× faster than one run() per call; target ≥ 5×: ${gain >= 5 ? 'met' : 'MISSED'}`,
);
await pool.close();
await raw.close();
