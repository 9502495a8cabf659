import type { BinderBenchmarkResult } from './binder-benchmark-options.js';

/** A Vega-Lite specification, as plain JSON (the library's own types stay out of this module). */
export type VegaLiteSpec = Record<string, unknown>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const WIDTH = 560;
const HEIGHT = 320;

function clockNote(result: BinderBenchmarkResult): string {
  return result.clock === 'virtual' ? 'virtual clock: latencies drawn, not timed' : 'wall clock';
}

/**
 * Accuracy against budget, one line per binder (simulated binders carry "(simulated)" in their
 * name), with the reference rows (oracle, no binder) as dashed horizontal rules. Budgets on a log
 * axis, ticks at the budgets of the sweep.
 */
export function accuracyPlotSpec(result: BinderBenchmarkResult): VegaLiteSpec {
  const points = result.rows.map((row) => ({
    binder: row.binder,
    budgetMs: row.budgetMs,
    accuracy: row.accuracy,
  }));
  const references = result.references.map((row) => ({
    name: `${row.name} (reference)`,
    accuracy: row.accuracy,
  }));
  return {
    $schema: SCHEMA,
    title: {
      text: 'Accuracy against latency budget',
      subtitle: `${result.dataset.cases} cases, planner: ${result.planner}; ${clockNote(result)}`,
    },
    width: WIDTH,
    height: HEIGHT,
    layer: [
      {
        data: { values: references },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { y: { field: 'accuracy', type: 'quantitative' } },
      },
      {
        data: { values: references },
        mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#555' },
        encoding: {
          y: { field: 'accuracy', type: 'quantitative' },
          x: { datum: result.budgetsMs[0] },
          text: { field: 'name' },
        },
      },
      {
        data: { values: points },
        mark: { type: 'line', point: true },
        encoding: {
          x: {
            field: 'budgetMs',
            type: 'quantitative',
            title: 'budget (ms, log scale)',
            scale: {
              type: 'log',
              domain: [result.budgetsMs[0]! / 1.25, result.budgetsMs.at(-1)! * 1.25],
              nice: false,
            },
            axis: { values: result.budgetsMs, format: 'd' },
          },
          y: {
            field: 'accuracy',
            type: 'quantitative',
            title: 'accuracy (BFCL rule)',
            scale: { domain: [0, 1] },
            axis: { format: '%' },
          },
          color: { field: 'binder', type: 'nominal', title: 'binder' },
        },
      },
    ],
  };
}

/** Per binder, its hops' latencies at the largest budget as CDF points (sorted, fraction ≤ x). */
export function latencyCdfPoints(result: BinderBenchmarkResult) {
  const largest = result.budgetsMs.at(-1);
  return result.binders.flatMap((binder) => {
    const latencies = result.outcomes
      .filter(
        (outcome) =>
          outcome.binder === binder.label &&
          outcome.budgetMs === largest &&
          outcome.status !== 'skipped',
      )
      .map((outcome) => outcome.latencyMs)
      .sort((a, b) => a - b);
    return latencies.map((latencyMs, index) => ({
      binder: binder.label,
      latencyMs,
      fraction: (index + 1) / latencies.length,
    }));
  });
}

/**
 * The latency distribution per binder as a CDF (share of hops done within x ms), from the run at
 * the largest budget — hops cut at that budget pile up on it — with each budget of the sweep
 * marked as a dashed vertical rule: where a binder's curve crosses a rule is its hit rate there.
 * The latency axis starts a few pixels left of 0, so that a binder of microseconds (the lexical
 * one) draws its line beside the axis, not on it. Budget labels sit at the bottom, where a CDF
 * leaves room: right of their rules, but the last left of its rule, so that it stays inside the
 * plot (and clear of the legend).
 */
export function latencyCdfSpec(result: BinderBenchmarkResult): VegaLiteSpec {
  const budgets = result.budgetsMs.map((budgetMs) => ({ budgetMs, label: `${budgetMs} ms` }));
  const budgetX = { field: 'budgetMs', type: 'quantitative' };
  const label = (align: 'left' | 'right', values: typeof budgets) => ({
    data: { values },
    mark: {
      type: 'text',
      align,
      baseline: 'bottom',
      dx: align === 'left' ? 3 : -3,
      y: HEIGHT - 3,
      color: '#555',
    },
    encoding: { x: budgetX, text: { field: 'label' } },
  });
  return {
    $schema: SCHEMA,
    title: {
      text: 'Binder latency (CDF), budgets marked',
      subtitle: `hops at the ${result.budgetsMs.at(-1)} ms budget; ${clockNote(result)}`,
    },
    width: WIDTH,
    height: HEIGHT,
    layer: [
      {
        data: { values: budgets },
        mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
        encoding: { x: budgetX },
      },
      label('left', budgets.slice(0, -1)),
      label('right', budgets.slice(-1)),
      {
        data: { values: latencyCdfPoints(result) },
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: {
          x: {
            field: 'latencyMs',
            type: 'quantitative',
            title: 'binder hop latency (ms)',
            scale: { padding: 10, nice: false },
          },
          y: {
            field: 'fraction',
            type: 'quantitative',
            title: 'share of hops done',
            scale: { domain: [0, 1] },
            axis: { format: '%' },
          },
          color: { field: 'binder', type: 'nominal', title: 'binder' },
        },
      },
    ],
  };
}
