/**
 * CPU-bound tools: SHA-256 of 64 KiB, 50 rounds per call, 64 calls per turn. Worker pool
 * throughput against the same handler inline (one core), with a hand-written Piscina pool as the
 * reference. Target on 2 cores: worker pool ≥ 1.7× inline.
 *
 * Run: npm run bench:one bench/cpu-bound.bench.ts
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { Bench } from 'tinybench';
import { hash64k } from './support/cpu-tools.mjs';
import { printRatios } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  createWorkerPool,
  defineTool,
  dispatchTurn,
} from './support/switchyard.js';

const CALLS = 64;
const ROUNDS = 50;
const THREADS = availableParallelism();
const module = new URL('./support/cpu-tools.mjs', import.meta.url);
const schema = {
  type: 'object',
  properties: { rounds: { type: 'integer' } },
  required: ['rounds'],
} as const;

const inline = createDispatcher({
  registry: createToolRegistry([
    defineTool({
      name: 'hash',
      description: 'hash',
      inputSchema: schema,
      safety: { readOnly: true },
      handler: hash64k,
    }),
  ]),
});
const pool = createWorkerPool({ minThreads: THREADS, maxThreads: THREADS });
const onWorkers = createDispatcher({
  registry: createToolRegistry([
    defineTool({
      name: 'hash',
      description: 'hash',
      inputSchema: schema,
      safety: { readOnly: true },
      executor: { kind: 'worker', module, export: 'hash64k' },
    }),
  ]),
  executors: [pool.executor],
});
const raw = new Piscina({ filename: module.href, minThreads: THREADS, maxThreads: THREADS });
const calls = Array.from({ length: CALLS }, (_, index) => ({
  id: `h${index}`,
  name: 'hash',
  arguments: { rounds: ROUNDS },
}));

const bench = new Bench({
  name: `${CALLS} calls of sha256(64 KiB) × ${ROUNDS} on ${THREADS} cores (per call)`,
  time: 3000,
  warmup: true,
});
bench
  .add('inline, main thread (baseline)', async () => {
    await dispatchTurn(calls, { dispatcher: inline, maxConcurrentTools: 8 });
  })
  .add('raw Piscina, one run() per call', async () => {
    await Promise.all(calls.map(() => raw.run({ kind: 'hash', rounds: ROUNDS })));
  })
  .add('Switchyard worker pool', async () => {
    const results = await dispatchTurn(calls, { dispatcher: onWorkers, maxConcurrentTools: 8 });
    if (!results.every((result) => result.ok)) throw new Error('a call failed');
  });
await bench.run();
const perCall = printRatios(bench, 'inline, main thread (baseline)', CALLS, 'ms');
const speedup =
  (perCall.get('inline, main thread (baseline)') ?? Number.NaN) /
  (perCall.get('Switchyard worker pool') ?? Number.NaN);
const rawSpeedup =
  (perCall.get('inline, main thread (baseline)') ?? Number.NaN) /
  (perCall.get('raw Piscina, one run() per call') ?? Number.NaN);
console.log(
  `throughput vs inline: worker pool ${speedup.toFixed(2)}×, raw Piscina ${rawSpeedup.toFixed(2)}×; target ≥ 1.7×: ${speedup >= 1.7 ? 'met' : 'MISSED'}`,
);
await pool.close();
await raw.close();
