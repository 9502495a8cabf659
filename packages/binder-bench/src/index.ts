// The binder latency-budget benchmark (`switchyard/binder-bench`): accuracy of tool-argument
// binders against latency budgets, with plots. Plotting needs the optional vega and vega-lite.

export {
  type BenchCase,
  type BenchCaseSet,
  type BenchTool,
  type ExcludedCase,
  type ExpectedCall,
  parseBenchCases,
  readBenchCases,
} from './bench-case.js';
export { type BenchClock, fakeClock, realClock } from './bench-clock.js';
export { accuracyPlotSpec, latencyCdfSpec, type VegaLiteSpec } from './bench-plot-specs.js';
export { benchReportHtml } from './bench-report-html.js';
export type { CaseOutcome } from './bind-case.js';
export type {
  BenchOutcome,
  BenchProgress,
  BinderBenchmarkOptions,
  BinderBenchmarkResult,
} from './binder-benchmark-options.js';
export { type BinderSpec, DEFAULT_BINDERS } from './binder-spec.js';
export { formatBenchTable } from './format-bench-table.js';
export { drawLatency, type LatencyDistribution } from './latency-distribution.js';
export { type LatencySummary, summarizeLatencies } from './latency-stats.js';
export { createLexicalBinder } from './lexical-binder.js';
export {
  type ArgumentMatch,
  matchArguments,
  normalizeAnswerString,
  oracleArguments,
} from './match-arguments.js';
export type { BinderInfo } from './open-binder.js';
export { parseBinderSpec } from './parse-binder-spec.js';
export type { PlannerMode } from './planner-call.js';
export {
  type BenchPlots,
  type ChartingLibrary,
  loadChartingLibrary,
  renderBenchPlots,
} from './render-bench-plots.js';
export { runBinderBenchmark } from './run-binder-benchmark.js';
export { SAMPLE_CASES_PATH, sampleCases } from './sample-cases.js';
export type { LatencyOf, SimulatedAnswers } from './simulated-binder.js';
export {
  type SimulatedBinderServer,
  startSimulatedBinderServer,
} from './simulated-binder-server.js';
export type { BenchRow, ReferenceRow } from './summarize-outcomes.js';
export {
  BENCH_FILES,
  type WriteBenchResultsOptions,
  writeBenchResults,
} from './write-bench-results.js';
