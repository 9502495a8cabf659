import type { BinderBenchmarkResult } from './binder-benchmark-options.js';

const HEADER = [
  'binder',
  'budget ms',
  'valid %',
  'acc %',
  'hit %',
  'ok',
  'timeout',
  'transport',
  'schema',
  'skipped',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'mean ms',
  'sd ms',
];

const percent = (rate: number | null) => (rate === null ? '—' : (rate * 100).toFixed(1));
const ms = (value: number | null) =>
  value === null ? '—' : value < 10 ? value.toFixed(2) : value.toFixed(0);

/** Per binder whose hops failed in transport: how many, and the first reason. */
function transportNotes(result: BinderBenchmarkResult): string[] {
  return result.binders.flatMap((binder) => {
    const hops = result.outcomes.filter(
      (outcome) => outcome.binder === binder.label && outcome.status !== 'skipped',
    );
    const failed = hops.filter((outcome) => outcome.status === 'transport_error');
    if (failed.length === 0) return [];
    const reason = failed[0]?.reason ?? 'no reason given';
    return [
      `${binder.label}: ${failed.length} of ${hops.length} hops failed in transport (${reason}); check its endpoint and key.`,
    ];
  });
}

/**
 * The results as a plain-text table: one line per binder × budget (simulated binders carry
 * "(simulated)"), then the reference rows (oracle, no binder), then notes on the clock, the cases
 * left out and the binders whose hops failed in transport. Numbers right-aligned; rates in
 * percent of the cases, the hit rate of the hops.
 */
export function formatBenchTable(result: BinderBenchmarkResult): string {
  const lines: string[][] = [HEADER];
  for (const row of result.rows) {
    const { statuses, latencyMs: latency } = row;
    lines.push([
      row.binder,
      String(row.budgetMs),
      percent(row.schemaValidRate),
      percent(row.accuracy),
      percent(row.budgetHitRate),
      String(statuses.ok),
      String(statuses.timeout),
      String(statuses.transport_error),
      String(statuses.schema_error),
      String(statuses.skipped),
      ms(latency.p50),
      ms(latency.p95),
      ms(latency.p99),
      ms(latency.mean),
      ms(latency.stddev),
    ]);
  }
  for (const reference of result.references) {
    lines.push([
      `${reference.name} (reference)`,
      '—',
      percent(reference.schemaValidRate),
      percent(reference.accuracy),
      ...Array<string>(11).fill(''),
    ]);
  }
  const widths = HEADER.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const render = (line: string[]) =>
    line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const table = [render(lines[0]!), rule, ...lines.slice(1).map(render)];
  const { dataset } = result;
  const notes = [
    `${dataset.cases} cases from ${dataset.source}; planner: ${result.planner}; ${result.clock === 'virtual' ? 'virtual clock (latencies drawn, not timed)' : 'wall clock'}; concurrency ${result.concurrency}; warm-up ${result.warmup}.`,
  ];
  if (dataset.excluded.length > 0)
    notes.push(
      `${dataset.excluded.length} cases left out (several expected calls, or a schema that does not compile).`,
    );
  notes.push(...transportNotes(result));
  if (result.binders.some((binder) => binder.simulated)) {
    notes.push(
      '(simulated) rows answer the expected arguments after drawn latencies: they show what a budget cuts, not what a model knows.',
    );
  }
  return `${[...table, '', ...notes].join('\n')}\n`;
}
