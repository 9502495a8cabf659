/**
 * I/O-bound fan-out: 1000 calls that each wait 10 ms, at most 16 in flight. The ideal wall time is
 * 1000 / 16 × 10 ms = 625 ms; the target is to stay within 5% of it.
 *
 * Run: npm run bench:one bench/io-bound.bench.ts
 */
import { Bench } from 'tinybench';
import { printRatios } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
} from './support/switchyard.js';

const CALLS = 1000;
const WAIT_MS = 10;
const BOUND = 16;
const IDEAL_MS = (CALLS / BOUND) * WAIT_MS;

const wait = defineTool({
  name: 'wait',
  description: 'Wait, then answer',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
  safety: { readOnly: true },
  handler: ({ ms }: { ms: number }) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
});
const dispatcher = createDispatcher({ registry: createToolRegistry([wait]) });
const calls = Array.from({ length: CALLS }, (_, index) => ({
  id: `c${index}`,
  name: 'wait',
  arguments: { ms: WAIT_MS },
}));

/** The ideal: 16 workers each awaiting its share of timers back to back, no dispatch at all. */
async function idealLanes(): Promise<void> {
  const lanes = Array.from({ length: BOUND }, async () => {
    for (let index = 0; index < CALLS / BOUND; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    }
  });
  await Promise.all(lanes);
}

const bench = new Bench({
  name: `${CALLS} calls × ${WAIT_MS} ms, ${BOUND} in flight (wall time per turn)`,
  iterations: 5,
  time: 0,
  warmup: false,
});
bench
  .add('16 bare timer lanes (baseline)', idealLanes)
  .add('dispatchTurn, maxConcurrentTools 16', async () => {
    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: BOUND });
    if (results.length !== CALLS) throw new Error('lost results');
  });
await bench.run();
const perTurn = printRatios(bench, '16 bare timer lanes (baseline)', 1, 'ms');
const measured = perTurn.get('dispatchTurn, maxConcurrentTools 16') ?? Number.NaN;
console.log(
  `dispatchTurn: ${measured.toFixed(1)} ms vs the ideal ${IDEAL_MS} ms (+${(((measured - IDEAL_MS) / IDEAL_MS) * 100).toFixed(1)}%); target within 5%: ${measured <= IDEAL_MS * 1.05 ? 'met' : 'MISSED'}`,
);
