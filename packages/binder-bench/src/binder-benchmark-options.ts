import { InvalidOptionError } from 'switchyard';
import { optionsObject } from 'switchyard/extension';
import type { BenchCase, BenchCaseSet, ExcludedCase } from './bench-case.js';
import type { BenchClock } from './bench-clock.js';
import type { CaseOutcome } from './bind-case.js';
import { type BinderSpec, DEFAULT_BINDERS } from './binder-spec.js';
import type { BinderInfo } from './open-binder.js';
import type { PlannerMode } from './planner-call.js';
import type { BenchRow, ReferenceRow } from './summarize-outcomes.js';

/** Options of `runBinderBenchmark`; every one has a default. */
export interface BinderBenchmarkOptions {
  /** The cases (a parsed file, or a list). Default: the bundled BFCL sample (`sampleCases()`). */
  readonly cases?: BenchCaseSet | readonly BenchCase[];
  /** The binders to measure. Default `DEFAULT_BINDERS` (lexical and two simulated binders). */
  readonly binders?: readonly BinderSpec[];
  /** The sweep of budgets (the layer's `timeoutMs`), in ms. Default 250, 500, 1000, 2000. */
  readonly budgetsMs?: readonly number[];
  /** Cases in flight at once per binder and budget. Default 4. */
  readonly concurrency?: number;
  /** Requests sent to each binder before measuring, left out of every figure. Default 2. */
  readonly warmup?: number;
  /** How the weak planner is simulated. Default `intent`. */
  readonly planner?: PlannerMode;
  /** Seeds the simulated binders' latencies (the same seed draws the same latencies). Default `1`. */
  readonly seed?: string;
  /** The time the run is measured on. Default `realClock()`; `fakeClock()` for virtual time. */
  readonly clock?: BenchClock;
  /** Where API keys and base URLs are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called after each measured case. */
  readonly onProgress?: (progress: BenchProgress) => void;
}

/** How far a run has got. */
export interface BenchProgress {
  readonly done: number;
  readonly total: number;
  readonly binder: string;
  readonly budgetMs: number;
}

/** One measured case, with its binder and budget. */
export interface BenchOutcome extends CaseOutcome {
  readonly binder: string;
  readonly budgetMs: number;
}

/** Everything a run measured; what `--out` writes as `results.json`. */
export interface BinderBenchmarkResult {
  readonly version: 1;
  /** `virtual` when measured on a fake clock: latencies are drawn, not timed. */
  readonly clock: 'wall' | 'virtual';
  readonly dataset: {
    readonly source: string;
    readonly cases: number;
    readonly excluded: readonly ExcludedCase[];
  };
  readonly planner: PlannerMode;
  readonly budgetsMs: readonly number[];
  readonly concurrency: number;
  readonly warmup: number;
  readonly seed: string;
  readonly binders: readonly BinderInfo[];
  /** One row per binder × budget, binders in the order given, budgets ascending. */
  readonly rows: readonly BenchRow[];
  readonly references: readonly ReferenceRow[];
  readonly outcomes: readonly BenchOutcome[];
}

/** The options with every default decided; throws `InvalidOptionError` naming a bad one. */
export function checkedBenchOptions(given: BinderBenchmarkOptions | undefined) {
  const options = optionsObject('runBinderBenchmark', given);
  const budgetsMs = [...new Set(options.budgetsMs ?? [250, 500, 1000, 2000])].sort((a, b) => a - b);
  if (
    budgetsMs.length === 0 ||
    budgetsMs.some((ms) => typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1)
  ) {
    throw new InvalidOptionError(
      'budgetsMs',
      `runBinderBenchmark: budgetsMs must be numbers of ms ≥ 1; got ${JSON.stringify(options.budgetsMs)}`,
    );
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidOptionError(
      'concurrency',
      `runBinderBenchmark: concurrency must be an integer ≥ 1; got ${concurrency}`,
    );
  }
  const warmup = options.warmup ?? 2;
  if (!Number.isInteger(warmup) || warmup < 0) {
    throw new InvalidOptionError(
      'warmup',
      `runBinderBenchmark: warmup must be an integer ≥ 0; got ${warmup}`,
    );
  }
  const planner = options.planner ?? 'intent';
  if (planner !== 'intent' && planner !== 'partial') {
    throw new InvalidOptionError(
      'planner',
      `runBinderBenchmark: planner must be "intent" or "partial"; got ${JSON.stringify(planner)}`,
    );
  }
  const binders = options.binders ?? DEFAULT_BINDERS;
  if (!Array.isArray(binders) || binders.length === 0) {
    throw new InvalidOptionError('binders', 'runBinderBenchmark: binders must be a non-empty list');
  }
  const seed = options.seed ?? '1';
  if (typeof seed !== 'string') {
    throw new InvalidOptionError(
      'seed',
      `runBinderBenchmark: seed must be a string; got ${typeof seed}`,
    );
  }
  return { budgetsMs, concurrency, warmup, planner, binders, seed };
}
