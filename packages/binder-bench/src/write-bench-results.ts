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

/**
 * Writes a run into `outDir` (created if missing): `results.json` first, then the two SVG plots
 * and `report.html`. Returns the paths written. Throws `MissingPeerDependencyError` when the plots
 * cannot be drawn (vega / vega-lite missing); `results.json` is written by then.
 */
export async function writeBenchResults(
  result: BinderBenchmarkResult,
  outDir: string,
  options: { readonly load?: () => Promise<ChartingLibrary> } = {},
): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const path = (name: string) => join(outDir, name);
  writeFileSync(path(BENCH_FILES.results), `${JSON.stringify(result, null, 2)}\n`);
  const plots = await renderBenchPlots(result, options);
  writeFileSync(path(BENCH_FILES.accuracy), plots.accuracySvg);
  writeFileSync(path(BENCH_FILES.latency), plots.latencySvg);
  writeFileSync(path(BENCH_FILES.report), benchReportHtml(result, plots, formatBenchTable(result)));
  return Object.values(BENCH_FILES).map(path);
}
