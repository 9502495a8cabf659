import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchReportHtml } from './bench-report-html.js';
import type { BinderBenchmarkResult } from './binder-benchmark-options.js';
import { formatBenchTable } from './format-bench-table.js';
import { type ChartingLibrary, renderBenchPlots } from './render-bench-plots.js';

/** The files a run writes, by role. */
export const BENCH_FILES = {
  results: 'results.json',
  accuracy: 'accuracy-vs-budget.svg',
  latency: 'latency-cdf.svg',
  report: 'report.html',
} as const;

/** Options of `writeBenchResults`. */
export interface WriteBenchResultsOptions {
  /** Replaces the import of vega and vega-lite (tests, or a library already loaded). */
  readonly load?: () => Promise<ChartingLibrary>;
  /**
   * Draw the plots. Default true. False writes `results.json` and a `report.html` without them
   * (for a run told up front that vega or vega-lite is missing).
   */
  readonly plots?: boolean;
}

/**
 * Writes a run into `outDir` (created if missing): `results.json` first, then the two SVG plots
 * and `report.html`. Returns the paths written. Throws `MissingPeerDependencyError` when the plots
 * cannot be drawn (vega / vega-lite missing); `results.json` is written by then. With
 * `plots: false`, writes `results.json` and `report.html` only.
 */
export async function writeBenchResults(
  result: BinderBenchmarkResult,
  outDir: string,
  options: WriteBenchResultsOptions = {},
): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const path = (name: string) => join(outDir, name);
  writeFileSync(path(BENCH_FILES.results), `${JSON.stringify(result, null, 2)}\n`);
  const table = formatBenchTable(result);
  if (options.plots === false) {
    writeFileSync(path(BENCH_FILES.report), benchReportHtml(result, undefined, table));
    return [BENCH_FILES.results, BENCH_FILES.report].map(path);
  }
  const plots = await renderBenchPlots(
    result,
    options.load === undefined ? {} : { load: options.load },
  );
  writeFileSync(path(BENCH_FILES.accuracy), plots.accuracySvg);
  writeFileSync(path(BENCH_FILES.latency), plots.latencySvg);
  writeFileSync(path(BENCH_FILES.report), benchReportHtml(result, plots, table));
  return Object.values(BENCH_FILES).map(path);
}
