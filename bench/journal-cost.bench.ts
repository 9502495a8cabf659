/**
 * What the journal costs a side-effecting call, against no journal, in one run: through
 * `dispatchTurn` with a run journal, an inline tool that answers at once (so the journal's own
 * cost is all there is to see).
 * - Throughput: turns of 100 calls (maxConcurrentTools 100), journaled calls per second; each
 *   run has 100 turns, then the next run is opened (its open and close are in the figures).
 * - Latency: one call at a time, the added median (and p99) per call.
 * - Read-only calls with the journal: they are not recorded, so they should cost nothing.
 * Stores: the file store (durability `process`, the default, and `machine`: an fdatasync per
 * group), and `node:sqlite` (WAL; synchronous NORMAL and FULL, the same two guarantees) for the
 * choice of the embedded store (docs/durability.md).
 * Targets: ≥ 20 000 journaled calls per second with the default store; ≤ 1 ms added median.
 *
 * Run: npm run build && tsx bench/journal-cost.bench.ts   (ROUNDS=n, default 3; TIME_MS per case, default 1000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { median } from './support/report.js';
import { createSqliteJournalStore } from './support/sqlite-journal-store.js';
import {
  createDispatcher,
  createFileJournalStore,
  createToolRegistry,
  defineTool,
  dispatchTurn,
  type JournalStore,
  openRunJournal,
  type RunJournal,
} from './support/switchyard.js';

const schema = {
  type: 'object',
  properties: { order: { type: 'integer' } },
  required: ['order'],
  additionalProperties: false,
} as const;
const record = defineTool<{ order: number }, string>({
  name: 'record_order',
  description: 'Record an order.',
  inputSchema: schema,
  safety: { sideEffectLevel: 'network' },
  handler: ({ order }) => `recorded ${order}`,
});
const lookup = defineTool<{ order: number }, string>({
  name: 'lookup_order',
  description: 'Look an order up.',
  inputSchema: schema,
  safety: { readOnly: true },
  handler: ({ order }) => `order ${order}`,
});
const dispatcher = createDispatcher({ registry: createToolRegistry([record, lookup]) });

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TURNS_PER_RUN = 100;
const TIME_MS = Number(process.env.TIME_MS ?? 1000);
const directory = mkdtempSync(join(tmpdir(), 'switchyard-journal-bench-'));

interface Case {
  readonly name: string;
  /** A journal for the case's calls; null: no journal. */
  readonly open: () => Promise<RunJournal | null>;
}

let runs = 0;
function storeCase(name: string, store: JournalStore): Case {
  return {
    name,
    open: () => {
      runs += 1;
      return openRunJournal({ store, runId: `run-${runs}` });
    },
  };
}

const cases: Case[] = [
  { name: 'no journal', open: async () => null },
  storeCase('file, process', createFileJournalStore({ directory: join(directory, 'process') })),
  storeCase(
    'file, machine',
    createFileJournalStore({ directory: join(directory, 'machine'), durability: 'machine' }),
  ),
  storeCase('sqlite, NORMAL', createSqliteJournalStore(join(directory, 'normal.db'), 'NORMAL')),
  storeCase('sqlite, FULL', createSqliteJournalStore(join(directory, 'full.db'), 'FULL')),
];

/** Each turn is a new iteration of the case's run: its calls are new calls, never replays. */
function turnOf(tool: string, size: number, iteration: number) {
  return Array.from({ length: size }, (_, index) => ({
    id: `c${index}`,
    name: tool,
    arguments: `{"order":${iteration * size + index}}`,
  }));
}

async function measure(tool: string, size: number): Promise<Map<string, number[]>> {
  const perCall = new Map<string, number[]>(cases.map((each) => [each.name, []]));
  const p50 = new Map<string, number[]>(cases.map((each) => [each.name, []]));
  const p99 = new Map<string, number[]>(cases.map((each) => [each.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    const bench = new Bench({ time: TIME_MS, warmup: true });
    for (const each of cases) {
      let journal = await each.open();
      let iteration = 0;
      bench.add(each.name, async () => {
        iteration += 1;
        // A run of TURNS_PER_RUN turns, then the next run: a journal holds one run's calls.
        if (iteration % TURNS_PER_RUN === 0 && journal !== null) {
          await journal.close();
          journal = await each.open();
        }
        await dispatchTurn(turnOf(tool, size, iteration), {
          dispatcher,
          maxConcurrentTools: size,
          turn: { iteration },
          ...(journal === null ? {} : { journal }),
        });
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const latency = (task.result as { latency?: { mean: number; p50: number; p99: number } })
        .latency;
      perCall.get(task.name)?.push((latency?.mean ?? Number.NaN) / size);
      p50.get(task.name)?.push(latency?.p50 ?? Number.NaN);
      p99.get(task.name)?.push(latency?.p99 ?? Number.NaN);
    }
  }
  const base = median(perCall.get('no journal') ?? []);
  const baseP50 = median(p50.get('no journal') ?? []);
  console.table(
    cases.map((each) => {
      const mean = median(perCall.get(each.name) ?? []);
      return {
        case: each.name,
        'calls/s': Math.round(1000 / mean),
        'µs per call': (mean * 1000).toFixed(2),
        'x no journal': (mean / base).toFixed(2),
        'turn p50 (ms)': median(p50.get(each.name) ?? []).toFixed(3),
        'added p50 (ms)': (median(p50.get(each.name) ?? []) - baseP50).toFixed(3),
        'turn p99 (ms)': median(p99.get(each.name) ?? []).toFixed(3),
      };
    }),
  );
  return perCall;
}

try {
  console.log(`side-effecting calls, turns of 100 (${ROUNDS} rounds, medians)`);
  await measure('record_order', 100);
  console.log('side-effecting calls, one at a time: the added latency per call');
  await measure('record_order', 1);
  console.log('read-only calls, turns of 100: not recorded');
  await measure('lookup_order', 100);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
