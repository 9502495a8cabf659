/**
 * One hung call among 600 on the worker pool (not run in CI): how long the other 599 take to
 * settle, against the same 600 calls with none hung, in the same run. A hung call must hold up
 * only itself: its batch-mates that finished before it, and those queued behind it, settle as
 * if it were not there. Checks that all 599 settle within `LIMIT_MS` (default 5 000) for a hung
 * call early, in the middle and at the end of the turn; prints the times and exits non-zero when
 * a check fails.
 *
 * Run: npm run build && npx tsx bench/worker-hung-call.ts   (THREADS, default 2; ROUNDS, 3)
 */
import { performance } from 'node:perf_hooks';
import {
  createDispatcher,
  createToolRegistry,
  createWorkerPool,
  defineTool,
  type ToolCallResult,
} from './support/switchyard.js';

const CALLS = 600;
const THREADS = Number(process.env.THREADS ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const LIMIT_MS = Number(process.env.LIMIT_MS ?? 5000);
const module = new URL('./support/cpu-tools.mjs', import.meta.url);

const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    inputSchema: { type: 'object' },
    safety: { readOnly: true },
    executor: { kind: 'worker', module, export: name },
  });

/** Milliseconds until every call but the hung one settled (Infinity past `LIMIT_MS`), and how many did. */
async function run(hungAt: number | undefined): Promise<{ ms: number; settled: number }> {
  const pool = createWorkerPool({ minThreads: THREADS, maxThreads: THREADS, closeTimeoutMs: 100 });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([tool('echo'), tool('hang')]),
    executors: [pool.executor],
  });
  // Warm every thread, so start-up is not measured.
  await Promise.all(
    Array.from({ length: THREADS }, (_, index) =>
      dispatcher.dispatch({ id: `w${index}`, name: 'echo', arguments: { value: index } }),
    ),
  );
  let settled = 0;
  const started = performance.now();
  const others: Promise<ToolCallResult>[] = [];
  for (let index = 0; index < CALLS; index += 1) {
    if (index === hungAt) {
      void dispatcher.dispatch({ id: 'hung', name: 'hang', arguments: {} });
      continue;
    }
    others.push(
      dispatcher
        .dispatch({ id: `c${index}`, name: 'echo', arguments: { value: index } })
        .then((result) => {
          settled += 1;
          return result;
        }),
    );
  }
  const limit = new Promise<'limit'>((resolve) => setTimeout(resolve, LIMIT_MS, 'limit').unref());
  const outcome = await Promise.race([Promise.all(others), limit]);
  const ms = outcome === 'limit' ? Number.POSITIVE_INFINITY : performance.now() - started;
  const count = settled;
  await pool.close();
  return { ms, settled: count };
}

const cases: [string, number | undefined][] = [
  ['no hung call (baseline)', undefined],
  ['hung call 11th', 10],
  ['hung call 300th', 299],
  ['hung call last', CALLS - 1],
];
const rows: Record<string, string>[] = [];
let failed = false;
const baselines: number[] = [];
for (const [name, hungAt] of cases) {
  const times: number[] = [];
  let fewest = CALLS;
  for (let round = 0; round < ROUNDS; round += 1) {
    const { ms, settled } = await run(hungAt);
    times.push(ms);
    fewest = Math.min(fewest, settled);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  if (hungAt === undefined) baselines.push(median);
  const others = hungAt === undefined ? CALLS : CALLS - 1;
  const ok = fewest === others && Number.isFinite(times.at(-1)!);
  failed ||= !ok;
  rows.push({
    case: name,
    'median ms to settle the others': median.toFixed(1),
    'x baseline': (median / baselines[0]!).toFixed(2),
    'fewest settled': `${fewest}/${others}`,
    check: ok ? 'ok' : `FAILED: not all settled within ${LIMIT_MS} ms`,
  });
}
console.log(`${CALLS} calls on ${THREADS} threads, ${ROUNDS} rounds each`);
console.table(rows);
if (failed) process.exitCode = 1;
