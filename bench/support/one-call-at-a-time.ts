/**
 * One side of the one-call-at-a-time comparison in `worker-overhead.bench.ts`, run in a fresh
 * process so that the side gets its own thread placement: `raw` (a bare `piscina.run()`),
 * `raw-untimed` (the same with Piscina's `recordTiming` off, as the pool runs it) or `pool` (a
 * dispatch through Switchyard's worker pool). Prints the mean time per call in µs as JSON.
 *
 * Run: tsx bench/support/one-call-at-a-time.ts raw|raw-untimed|pool [threads]
 */
import { Bench } from 'tinybench';
import { createEchoDispatcher, createRawEcho } from './echo-worker.js';
import { meanMs } from './report.js';

const CALLS = 200;
const side = process.argv[2] ?? '';
const threads = Number(process.argv[3] ?? 1);

interface Side {
  call(value: number): Promise<unknown>;
  close(): Promise<void>;
}

function rawSide(recordTiming: boolean): Side {
  const raw = createRawEcho(threads, recordTiming);
  return { call: (value) => raw.run({ kind: 'echo', value }), close: () => raw.close() };
}

function poolSide(): Side {
  const { dispatcher, pool } = createEchoDispatcher(threads);
  return {
    // Bare, like the raw side: a wrapper that checks each result would add its own hops to every
    // call. The result is checked once, after the measurement.
    call: (value) => dispatcher.dispatch({ id: 'e', name: 'echo', arguments: { value } }),
    close: () => pool.close(),
  };
}

const sides: Record<string, () => Side> = {
  raw: () => rawSide(true),
  'raw-untimed': () => rawSide(false),
  pool: poolSide,
};
const start = Object.hasOwn(sides, side) ? sides[side] : undefined;
if (start === undefined) {
  throw new Error(`usage: one-call-at-a-time.ts raw|raw-untimed|pool [threads]; got ${side}`);
}
const subject = start();
const bench = new Bench({ time: 1000, warmup: true });
bench.add(side, async () => {
  for (let value = 0; value < CALLS; value += 1) await subject.call(value);
});
await bench.run();
const check = (await subject.call(7)) as { ok?: boolean; result?: unknown } | number;
if (check !== 7 && (typeof check !== 'object' || check.ok !== true || check.result !== 7)) {
  throw new Error(`the ${side} side returned ${JSON.stringify(check)} for 7`);
}
await subject.close();
console.log(JSON.stringify({ side, perCallUs: (meanMs(bench, side) / CALLS) * 1000 }));
