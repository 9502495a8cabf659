/**
 * Ordered streaming of 100k trivial inline calls through `dispatchTurn` (bounded, re-sequenced)
 * against `Promise.all` over the same `dispatch` calls (unbounded, everything in memory at once).
 * Targets: time per call within 1.5× of Promise.all, and memory that does not grow with the
 * number of calls. A third row runs the same calls through RxJS `mergeMap` (concurrency 16) with a
 * re-sequencing buffer: the pipe() the turn engine would otherwise be, kept here so the reason it
 * is hand-written stays measured.
 *
 * Run: npm run build && node --expose-gc --import tsx bench/ordered-streaming.bench.ts
 * (without --expose-gc the memory table shows garbage awaiting collection, not live memory)
 */
import { from, lastValueFrom, mergeMap, tap } from 'rxjs';
import { Bench } from 'tinybench';
import { printRatios } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ProposedCall,
  streamTurn,
} from './support/switchyard.js';

const CALLS = 100_000;
const echo = defineTool({
  name: 'echo',
  description: 'Echo a number',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  safety: { readOnly: true },
  handler: ({ n }: { n: number }) => n,
});
const dispatcher = createDispatcher({ registry: createToolRegistry([echo]) });

function* calls(count: number): Generator<ProposedCall> {
  for (let n = 0; n < count; n += 1) yield { id: `c${n}`, name: 'echo', arguments: { n } };
}

/** Consumes the ordered stream, checking order, and reports the heap peak seen while streaming. */
const gc = (globalThis as { gc?: () => void }).gc;

async function streamAll(count: number, sampleLive = false): Promise<number> {
  let expected = 0;
  let peak = 0;
  for await (const result of streamTurn(calls(count), { dispatcher, maxConcurrentTools: 16 })) {
    if (result.emitOrder !== expected) throw new Error(`out of order at ${expected}`);
    expected += 1;
    if (sampleLive && (expected & 16383) === 0) {
      // Collect first: the peak of live memory, not of garbage waiting for a collection.
      gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  if (expected !== count) throw new Error('lost results');
  return peak;
}

/** mergeMap's fan-out, with results held in a map until every earlier one has arrived. */
async function mergeMapInOrder(count: number): Promise<void> {
  const held = new Map<number, unknown>();
  let next = 0;
  await lastValueFrom(
    from(calls(count)).pipe(
      mergeMap(async (call) => {
        const emitOrder = Number(call.id?.slice(1));
        return dispatcher.dispatch(call, { emitOrder });
      }, 16),
      tap((result) => {
        held.set(result.emitOrder ?? -1, result);
        while (held.delete(next)) next += 1;
      }),
    ),
    { defaultValue: undefined },
  );
  if (next !== count) throw new Error('lost results');
}

const bench = new Bench({
  name: `${CALLS} trivial inline calls (per call)`,
  iterations: 5,
  time: 0,
  warmup: true,
});
bench
  .add('Promise.all over dispatch (baseline)', async () => {
    const results = await Promise.all(
      Array.from(calls(CALLS), (call, emitOrder) => dispatcher.dispatch(call, { emitOrder })),
    );
    if (results.length !== CALLS) throw new Error('lost results');
  })
  .add('streamTurn, ordered, maxConcurrentTools 16', async () => {
    await streamAll(CALLS);
  })
  .add('rxjs mergeMap 16 + re-sequencing buffer', async () => {
    await mergeMapInOrder(CALLS);
  });
await bench.run();
const perCall = printRatios(bench, 'Promise.all over dispatch (baseline)', CALLS, 'µs');
const ratio =
  (perCall.get('streamTurn, ordered, maxConcurrentTools 16') ?? Number.NaN) /
  (perCall.get('Promise.all over dispatch (baseline)') ?? Number.NaN);
console.log(
  `ordered streaming / Promise.all = ${ratio.toFixed(2)}×; target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'MISSED'}`,
);

const memory: Record<string, string>[] = [];
for (const count of [25_000, 100_000, 400_000]) {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const peak = await streamAll(count, gc !== undefined);
  memory.push({
    calls: String(count),
    'live heap growth while streaming (MB)': ((Math.max(peak, before) - before) / 2 ** 20).toFixed(
      1,
    ),
  });
}
console.log(
  gc === undefined
    ? 'memory: run with node --expose-gc to measure live memory'
    : 'memory: live heap growth while streaming should not grow with the number of calls',
);
console.table(memory);
