/**
 * The cost of one trivial call through `dispatchTurn`, per call, at N = 1, 10 and 100 calls per
 * turn, beside the bare loop a hand-written agent would run (`await handler(JSON.parse(args))`
 * for each call) measured in the same run.
 * Targets: ≤ 2 µs per call at N = 1; ≤ 0.8 µs per call at N = 100, within 3.6× of the bare loop.
 * On a loaded machine read the ratio column: wall-clock figures move with the neighbours. Each N
 * runs in ROUNDS rounds (default 5); figures are medians over rounds of each round's mean turn (GC pauses included).
 * With `BASELINE=<folder of an earlier build>` (see bench/support/baseline.ts) the same turns also
 * run through that build, in the same rounds: the last column is this build over that one. The
 * baseline to hold `dispatchTurn` to is b89caab (the package split, before one call path and the
 * compiled stack):
 *
 *   git archive b89caab | tar -x -C /tmp/switchyard-b89caab   (after mkdir)
 *   ln -s "$PWD/node_modules" /tmp/switchyard-b89caab/node_modules
 *   (cd /tmp/switchyard-b89caab && node scripts/build.mjs core)
 *
 * Each round runs the cases in a rotated order, so no case always runs first (or last) on a
 * machine whose load changes under it.
 *
 * Run: npm run build && npx tsx bench/turn-cost.bench.ts   (ROUNDS=n, BASELINE=folder, N=list)
 * Profile: TURN_COST_PROFILE=100 [TURN_COST_CALLS=2000000] [TURN_COST_BARE=1] \
 *   node --cpu-prof --import tsx bench/turn-cost.bench.ts
 *   runs only dispatchTurn (or the bare loop) at that N for a fixed number of calls, without
 *   tinybench: for CPU profiles, and for instruction counts under valgrind --tool=callgrind (run
 *   two call counts and divide the difference, which cancels start-up).
 */
import { Bench } from 'tinybench';
import { baseline } from './support/baseline.js';
import { meanMs, median } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
} from './support/switchyard.js';

const handler = ({ a, b }: { a: number; b: number }) => a + b;
const add = defineTool<{ a: number; b: number }, number>({
  name: 'add',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  safety: { readOnly: true },
  handler,
});
const dispatcher = createDispatcher({ registry: createToolRegistry([add]) });
/** The same dispatcher and turn API of the earlier build, when one is given. */
const earlier =
  baseline === undefined
    ? undefined
    : {
        dispatchTurn: baseline.core.dispatchTurn,
        dispatcher: baseline.core.createDispatcher({
          registry: baseline.core.createToolRegistry([baseline.core.defineTool(add)]),
        }),
      };

function callsOf(n: number) {
  return Array.from({ length: n }, (_, index) => ({
    id: `c${index}`,
    name: 'add',
    arguments: `{"a":${index},"b":1}`,
  }));
}

/** The floor: what running the same calls costs without any runtime at all. */
async function bareLoop(calls: readonly { arguments: string }[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const call of calls) results.push(await handler(JSON.parse(call.arguments)));
  return results;
}

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TARGET_US: Record<number, number> = { 1: 2, 10: Number.NaN, 100: 0.8 };

const profiled = Number(process.env.TURN_COST_PROFILE ?? 0);
if (profiled > 0) {
  const calls = callsOf(profiled);
  const turns = Math.ceil(Number(process.env.TURN_COST_CALLS ?? 2_000_000) / profiled);
  const bare = process.env.TURN_COST_BARE === '1';
  for (let turn = 0; turn < turns; turn += 1) {
    if (bare) await bareLoop(calls);
    else await dispatchTurn(calls, { dispatcher });
  }
  console.log(`ran ${turns} ${bare ? 'bare loops' : 'turns'} of ${profiled} calls`);
} else {
  const rows: Record<string, string>[] = [];
  const sizes = (process.env.N ?? '1,10,100').split(',').map(Number);
  for (const n of sizes) {
    const calls = callsOf(n);
    const bares: number[] = [];
    const turns: number[] = [];
    const earlierTurns: number[] = [];
    const cases: [string, () => Promise<unknown>][] = [
      ['bare loop', () => bareLoop(calls)],
      ['dispatchTurn', () => dispatchTurn(calls, { dispatcher })],
    ];
    if (earlier !== undefined) {
      cases.push([
        'dispatchTurn, baseline build',
        () => earlier.dispatchTurn(calls, { dispatcher: earlier.dispatcher }),
      ]);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const bench = new Bench({ time: 400, warmup: true });
      for (let index = 0; index < cases.length; index += 1) {
        const [name, run] = cases[(round + index) % cases.length]!;
        bench.add(name, async () => {
          await run();
        });
      }
      await bench.run();
      bares.push((meanMs(bench, 'bare loop') * 1000) / n);
      turns.push((meanMs(bench, 'dispatchTurn') * 1000) / n);
      earlierTurns.push((meanMs(bench, 'dispatchTurn, baseline build') * 1000) / n);
    }
    const bare = median(bares);
    const turn = median(turns);
    const target = TARGET_US[n] ?? Number.NaN;
    rows.push({
      N: String(n),
      'bare loop (µs/call)': bare.toFixed(3),
      'dispatchTurn (µs/call)': turn.toFixed(3),
      'rounds min–max': `${Math.min(...turns).toFixed(3)}–${Math.max(...turns).toFixed(3)}`,
      'x bare loop': median(turns.map((each, round) => each / bares[round]!)).toFixed(2),
      target: Number.isNaN(target) ? '' : `≤ ${target} µs${n === 100 ? ', ≤ 3.6× bare' : ''}`,
      ...(earlier === undefined
        ? {}
        : {
            'baseline build (µs/call)': median(earlierTurns).toFixed(3),
            'x baseline build': median(
              turns.map((each, round) => each / earlierTurns[round]!),
            ).toFixed(2),
          }),
    });
  }
  console.log(
    `dispatchTurn per call vs a bare await handler(JSON.parse(args)) loop (medians of ${ROUNDS} rounds)${earlier === undefined ? '' : `; baseline build: ${baseline?.folder}`}`,
  );
  console.table(rows);
}
