/**
 * Per-call overhead of a trivial worker tool. One call at a time: the whole dispatch path plus the
 * pool against a raw `piscina.run()` (target ≤ 1.2×), each side in fresh processes under the same
 * thread placement (ROUNDS=n sets the processes per side and placement, default 5). Many
 * queued: a turn of 2000 calls against one raw `run()` per call (target ≥ 5× better, by sending
 * queued calls several per message).
 *
 * Run: npm run bench:one bench/worker-overhead.bench.ts
 */
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Bench } from 'tinybench';
import { createEchoDispatcher, createRawEcho } from './support/echo-worker.js';
import { median, printRatios } from './support/report.js';
import { dispatchTurn } from './support/switchyard.js';

const run = promisify(execFile);
const QUEUED = 2000;
const THREADS = Number(process.env.THREADS ?? 1);

// One at a time, a round trip is mostly the OS waking the other thread: ~20 µs when the worker
// shares the main thread's core, ~70–90 µs when it runs on the other one. Raw Piscina and the pool
// each own a worker, placed independently, so measured side by side in one process the ratio
// compares two placements as often as two implementations. Each side therefore runs in fresh
// processes, alternating, under the same placement: pinned to one core (every thread shares it)
// and free (the OS places threads as it likes); the ratio is taken between the medians. The pool
// turns Piscina's timing histograms off; the reference side shows what that alone is worth.
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const side = fileURLToPath(new URL('./support/one-call-at-a-time.ts', import.meta.url));
const pinnable = spawnSync('taskset', ['--version']).status === 0;

/** The sides, baseline first: `raw-untimed` is raw Piscina configured as the pool configures it. */
const SIDES = {
  raw: 'raw piscina.run() (baseline)',
  'raw-untimed': 'raw run(), recordTiming off (reference)',
  pool: 'dispatch to the worker pool',
} as const;
type Side = keyof typeof SIDES;

async function measureSide(name: Side, pinned: boolean): Promise<number> {
  const node = [process.execPath, ...process.execArgv, side, name, String(THREADS)];
  const [command, ...args] = pinned ? ['taskset', '-c', '0', ...node] : node;
  const { stdout } = await run(command!, args);
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { perCallUs: number }).perCallUs;
}

const placements = pinnable ? [true, false] : [false];
if (!pinnable) console.log('taskset not found: the pinned placement is skipped');
const rows = [];
const ratios: number[] = [];
for (const pinned of placements) {
  const runs = new Map<Side, number[]>(Object.keys(SIDES).map((name) => [name as Side, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, times] of runs) times.push(await measureSide(name, pinned));
  }
  const baseline = median(runs.get('raw')!);
  for (const [name, times] of runs) {
    const ratio = median(times) / baseline;
    if (name === 'pool') ratios.push(ratio);
    rows.push({
      placement: pinned ? 'one core' : 'free',
      case: SIDES[name],
      'median (µs)': median(times).toFixed(1),
      'runs (µs)': times.map((value) => value.toFixed(0)).join(' '),
      'x baseline': ratio.toFixed(2),
    });
  }
}
console.log(
  `one call at a time (${ROUNDS} fresh processes per side and placement, ${THREADS} thread(s); per call)`,
);
console.table(rows);
const worst = Math.max(...ratios);
console.log(
  `one at a time: ${ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}× raw piscina.run(); target ≤ 1.2×: ${worst <= 1.2 ? 'met' : 'MISSED'}`,
);

const { dispatcher, pool } = createEchoDispatcher(THREADS);
const raw = createRawEcho(THREADS);
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
