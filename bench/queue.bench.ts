/**
 * The queue executor (switchyard/queue) against its baselines, in the same run, on a redis-server
 * started here:
 * 1. a CPU-bound tool (SHA-256 of 64 KiB × 50) on 1, 2 and 3 `switchyard worker` processes
 *    against the same handler inline: throughput and per-process efficiency;
 * 2. a trivial call's round trip, one at a time: dispatcher → queue executor → worker → result,
 *    against raw BullMQ add → process → completed (QueueEvents) with a plain BullMQ worker
 *    process. Target ≤ 1.2×;
 * 3. batched throughput: 2 000 trivial calls in flight against raw `addBulk` of 2 000 jobs.
 * Wall-clock figures move with the machine's load: read the ratios.
 *
 * Run: npm run bench:one bench/queue.bench.ts
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Queue, QueueEvents } from 'bullmq';
import { hash64k } from './support/cpu-tools.mjs';
import {
  cpuMs,
  type Running,
  startRawWorker,
  startRedisServer,
  startSwitchyardWorker,
} from './support/queue-processes.js';
import { tools } from './support/queue-tools.mjs';
import { createDispatcher, createToolRegistry, type JsonObject } from './support/switchyard.js';
import { createQueueExecutor } from './support/switchyard-queue.js';

const CPU_CALLS = 120;
const ROUNDS = 50;
const TRIP_CALLS = 200;
const TRIP_REPEATS = 5;
const BATCH = 2000;
const BATCH_REPEATS = 5;

const redis = await startRedisServer();
const connection = { url: redis.url, maxRetriesPerRequest: null };
const queue = createQueueExecutor({ connection: redis.url });
const dispatcher = createDispatcher({
  registry: createToolRegistry(tools),
  executors: [queue.executor],
});
let sequence = 0;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function dispatchAll(name: string, count: number, args: JsonObject) {
  return Promise.all(
    Array.from({ length: count }, () =>
      dispatcher.dispatch({ id: `c${sequence++}`, name, arguments: args }).then((result) => {
        if (!result.ok) throw new Error(`${name} failed: ${result.error}`);
      }),
    ),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

// 1. CPU-bound throughput on 1, 2, 3 worker processes. Wall-clock rates depend on the load of
// the machine; CPU time per call (from /proc) does not, and says what more cores would give.
function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
const inlineCpuStart = ownCpuMs();
const inlineMs = await timed(async () => {
  for (let index = 0; index < CPU_CALLS; index += 1) hash64k({ rounds: ROUNDS });
});
const inlineCpu = (ownCpuMs() - inlineCpuStart) / CPU_CALLS;
const inlineRate = (CPU_CALLS / inlineMs) * 1000;
const cpuRows: Record<string, string>[] = [
  {
    case: 'inline, main thread',
    'calls/s (wall)': inlineRate.toFixed(0),
    'per-process efficiency': '',
    'worker CPU ms/call': inlineCpu.toFixed(2),
    'dispatcher CPU ms/call': '',
    'redis CPU ms/call': '',
  },
];
let oneWorkerRate = 0;
let perCall = { worker: 0, dispatcher: 0, redis: 0 };
for (const count of [1, 2, 3]) {
  const workers = await Promise.all(
    Array.from({ length: count }, () => startSwitchyardWorker(redis.url, { concurrency: 1 })),
  );
  await dispatchAll('hash', count * 4, { rounds: ROUNDS }); // warm-up
  const runs: number[] = [];
  const workersCpu = () => workers.reduce((sum, worker) => sum + cpuMs(worker.pid), 0);
  const before = { worker: workersCpu(), dispatcher: ownCpuMs(), redis: cpuMs(redis.pid) };
  for (let repeat = 0; repeat < 3; repeat += 1) {
    runs.push(await timed(() => dispatchAll('hash', CPU_CALLS, { rounds: ROUNDS })));
  }
  const calls = 3 * CPU_CALLS;
  perCall = {
    worker: (workersCpu() - before.worker) / calls,
    dispatcher: (ownCpuMs() - before.dispatcher) / calls,
    redis: (cpuMs(redis.pid) - before.redis) / calls,
  };
  const rate = (CPU_CALLS / median(runs)) * 1000;
  if (count === 1) oneWorkerRate = rate;
  cpuRows.push({
    case: `${count} worker process${count === 1 ? '' : 'es'}`,
    'calls/s (wall)': rate.toFixed(0),
    'per-process efficiency': (rate / (count * oneWorkerRate)).toFixed(2),
    'worker CPU ms/call': perCall.worker.toFixed(2),
    'dispatcher CPU ms/call': perCall.dispatcher.toFixed(3),
    'redis CPU ms/call': perCall.redis.toFixed(3),
  });
  await Promise.all(workers.map((worker) => worker.kill()));
}
console.log(
  `\n1. CPU-bound tool, ${CPU_CALLS} calls in flight (SHA-256 of 64 KiB × ${ROUNDS}), load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
);
console.table(cpuRows);
// On C free cores, worker processes give C / (worker CPU per call) calls per second until the
// dispatcher or Redis (one core each at most) saturates.
const ceiling = Math.min(1000 / perCall.dispatcher, 1000 / perCall.redis);
for (const cores of [2, 8, 32]) {
  const projected = Math.min((cores * 1000) / perCall.worker, ceiling);
  console.log(
    `   on ${cores} free cores for workers: about ${projected.toFixed(0)} calls/s (${(projected / ((cores * 1000) / inlineCpu)).toFixed(2)} of ${cores}× inline)`,
  );
}

// 2: one worker process of each kind, concurrency 1 (BullMQ's own latency grows with it).
let workers: Running[] = await Promise.all([
  startSwitchyardWorker(redis.url, { concurrency: 1 }),
  startRawWorker(redis.url, 'raw', 1),
]);
const raw = new Queue('raw', { connection });
const rawEvents = new QueueEvents('raw', { connection });
await rawEvents.waitUntilReady();
const waiting = new Map<string, () => void>();
rawEvents.on('completed', ({ jobId }) => {
  waiting.get(jobId)?.();
  waiting.delete(jobId);
});
function rawCompletion(jobId: string): Promise<void> {
  return new Promise((resolve) => waiting.set(jobId, resolve));
}
async function rawTrip(): Promise<void> {
  const jobId = `r${sequence++}`;
  const done = rawCompletion(jobId);
  await raw.add('noop', { value: 1 }, { jobId, removeOnComplete: { age: 3600 } });
  await done;
}

await dispatchAll('noop', 50, { value: 1 });
for (let index = 0; index < 50; index += 1) await rawTrip();
// One call of each, alternately, so that the machine's changing load falls on both alike. CPU
// time per call (this process, and the worker's from /proc) is measured beside the wall clock.
const trips = {
  ours: { wall: [] as number[], cpu: 0, workerCpu: 0, worker: workers[0] as Running },
  raw: { wall: [] as number[], cpu: 0, workerCpu: 0, worker: workers[1] as Running },
};
async function measuredTrip(
  side: typeof trips.ours,
  trip: () => Promise<unknown>,
): Promise<number> {
  const cpu = ownCpuMs();
  const workerCpu = cpuMs(side.worker.pid);
  const wall = await timed(trip);
  side.cpu += ownCpuMs() - cpu;
  side.workerCpu += cpuMs(side.worker.pid) - workerCpu;
  return wall;
}
for (let repeat = 0; repeat < TRIP_REPEATS; repeat += 1) {
  let oursMs = 0;
  let rawMs = 0;
  for (let index = 0; index < TRIP_CALLS; index += 1) {
    oursMs += await measuredTrip(trips.ours, () => dispatchAll('noop', 1, { value: 1 }));
    rawMs += await measuredTrip(trips.raw, rawTrip);
  }
  trips.ours.wall.push(oursMs);
  trips.raw.wall.push(rawMs);
}
const tripCalls = TRIP_REPEATS * TRIP_CALLS;
const oursTrip = median(trips.ours.wall) / TRIP_CALLS;
const theirTrip = median(trips.raw.wall) / TRIP_CALLS;
console.log(
  `\n2. A trivial call's round trip, one at a time, worker concurrency 1 (median of ${TRIP_REPEATS} × ${TRIP_CALLS}, interleaved), load average ${loadavg()[0]?.toFixed(1)}`,
);
console.table([
  {
    case: 'raw BullMQ add → process → completed',
    'ms per call': theirTrip.toFixed(3),
    'x raw': '1.00',
    'caller CPU ms/call': (trips.raw.cpu / tripCalls).toFixed(3),
    'worker CPU ms/call': (trips.raw.workerCpu / tripCalls).toFixed(3),
  },
  {
    case: 'Switchyard queue executor',
    'ms per call': oursTrip.toFixed(3),
    'x raw': (oursTrip / theirTrip).toFixed(2),
    'caller CPU ms/call': (trips.ours.cpu / tripCalls).toFixed(3),
    'worker CPU ms/call': (trips.ours.workerCpu / tripCalls).toFixed(3),
  },
]);

// 3: the same at concurrency 32.
await Promise.all(workers.map((worker) => worker.kill()));
workers = await Promise.all([
  startSwitchyardWorker(redis.url, { concurrency: 32 }),
  startRawWorker(redis.url, 'raw', 32),
]);
// Round 0 of each side warms up (fresh worker processes, JIT) and is left out.
const batchOurs: number[] = [];
const batchTheirs: number[] = [];
for (let repeat = 0; repeat <= BATCH_REPEATS; repeat += 1) {
  const ours = await timed(() => dispatchAll('noop', BATCH, { value: 1 }));
  const theirs = await timed(async () => {
    const ids = Array.from({ length: BATCH }, () => `r${sequence++}`);
    const done = Promise.all(ids.map(rawCompletion));
    await raw.addBulk(
      ids.map((jobId) => ({
        name: 'noop',
        data: { value: 1 },
        opts: { jobId, removeOnComplete: { age: 3600 } },
      })),
    );
    await done;
  });
  if (repeat === 0) continue;
  batchOurs.push(ours);
  batchTheirs.push(theirs);
}
const oursRate = (BATCH / median(batchOurs)) * 1000;
const theirRate = (BATCH / median(batchTheirs)) * 1000;
console.log(
  `\n3. Batched: ${BATCH} trivial calls in flight, worker concurrency 32 (median of ${BATCH_REPEATS}, after a warm-up round)`,
);
console.table([
  { case: 'raw BullMQ addBulk → completed', 'calls/s': theirRate.toFixed(0), 'x raw': '1.00' },
  {
    case: 'Switchyard queue executor',
    'calls/s': oursRate.toFixed(0),
    'x raw': (oursRate / theirRate).toFixed(2),
  },
]);

await rawEvents.close();
await raw.close();
await queue.close();
await Promise.all(workers.map((worker) => worker.kill()));
await redis.stop();
