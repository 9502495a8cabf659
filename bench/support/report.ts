import type { Bench } from 'tinybench';

/** Mean latency of a task in milliseconds, or NaN when it did not run. */
export function meanMs(bench: Bench, name: string): number {
  const task = bench.getTask(name);
  const result = task?.result as { latency?: { mean: number } } | undefined;
  return result?.latency?.mean ?? Number.NaN;
}

/** The median of some numbers (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One row of a ratio table. */
export interface RatioRow {
  readonly case: string;
  readonly perItem: string;
  readonly vsBaseline: string;
  readonly note?: string;
}

/**
 * Prints each task's time per item (a task runs `itemsPerIteration` items per iteration) and its
 * ratio to the baseline task measured in the same run.
 */
export function printRatios(
  bench: Bench,
  baseline: string,
  itemsPerIteration: number,
  unit: 'ns' | 'µs' | 'ms' = 'µs',
): Map<string, number> {
  const scale = unit === 'ns' ? 1e6 : unit === 'µs' ? 1e3 : 1;
  const base = meanMs(bench, baseline) / itemsPerIteration;
  const perItem = new Map<string, number>();
  const rows = bench.tasks.map((task) => {
    const each = meanMs(bench, task.name) / itemsPerIteration;
    perItem.set(task.name, each);
    return {
      case: task.name,
      [`per item (${unit})`]: (each * scale).toFixed(unit === 'ms' ? 1 : 3),
      [`+ over baseline (${unit})`]: ((each - base) * scale).toFixed(unit === 'ms' ? 1 : 3),
      'x baseline': (each / base).toFixed(2),
    };
  });
  console.log(bench.name ?? '');
  console.table(rows);
  return perItem;
}
