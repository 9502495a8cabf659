import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError, ToolDefinitionError } from '../errors.js';
import { renderBinderPrompt } from '../middleware/binder/binder-prompt.js';
import { withNaturalLanguageExecutor } from '../middleware/with-natural-language-executor.js';
import type { JsonObject } from '../tools/json.js';
import { defaultSchemaValidator } from '../tools/schema-validator.js';
import {
  type BenchCase,
  type BenchCaseSet,
  type ExcludedCase,
  expectedToolOf,
} from './bench-case.js';
import { type BenchClock, realClock } from './bench-clock.js';
import { bindCase, type CaseOutcome, scoreArguments } from './bind-case.js';
import { type BinderSpec, DEFAULT_BINDERS } from './binder-spec.js';
import { oracleArguments } from './match-arguments.js';
import { type BinderInfo, type OpenedBinder, openBinder } from './open-binder.js';
import { type PlannerMode, plannerArguments } from './planner-call.js';
import { sampleCases } from './sample-cases.js';
import {
  type BenchRow,
  type ReferenceRow,
  referenceRow,
  summarizeOutcomes,
} from './summarize-outcomes.js';

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

const INTENT_FIELD = '_nl_intent';

function checkedOptions(options: BinderBenchmarkOptions) {
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
  return { budgetsMs, concurrency, warmup, planner, binders, seed: options.seed ?? '1' };
}

/** The cases whose tool schema compiles (the layer validates against it), the others excluded. */
function usableCases(set: BenchCaseSet): BenchCaseSet {
  const cases: BenchCase[] = [];
  const excluded = [...set.excluded];
  for (const benchCase of set.cases) {
    const tool = expectedToolOf(benchCase);
    try {
      defaultSchemaValidator.compile(tool.name, tool.inputSchema);
      cases.push(benchCase);
    } catch (error) {
      if (!ToolDefinitionError.isInstance(error)) throw error;
      excluded.push({ id: benchCase.id, reason: error.message });
    }
  }
  return { source: set.source, cases, excluded };
}

async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Measures binders under a sweep of latency budgets. For each case the weak planner is simulated
 * (a call to the right tool carrying `_nl_intent`, see `planner`), the binder layer
 * (`withNaturalLanguageExecutor`, `onFailure: 'passthrough'`) binds it with `timeoutMs` = the
 * budget, and the arguments that reach the tool are scored: schema-valid, correct by BFCL's rule
 * (`matchArguments`). Reference rows: the oracle (the expected arguments) and no binder. Binders
 * run one after another, budgets ascending, `concurrency` cases at a time, after `warmup` requests
 * that no figure counts. Throws `InvalidOptionError` naming a bad option; what happens to a case
 * is an outcome, never a throw.
 *
 * @example
 * const result = await runBinderBenchmark({ binders: [{ type: 'openai', model: 'gpt-4.1-nano' }] });
 * console.log(formatBenchTable(result));
 */
export async function runBinderBenchmark(
  options: BinderBenchmarkOptions = {},
): Promise<BinderBenchmarkResult> {
  const settings = checkedOptions(options);
  const given = options.cases ?? sampleCases();
  const set = usableCases(
    Array.isArray(given)
      ? { source: 'cases', cases: given as BenchCase[], excluded: [] }
      : (given as BenchCaseSet),
  );
  const clock = options.clock ?? realClock();
  const plannerArgs = new Map<string, JsonObject>(
    set.cases.map((c) => [c.id, plannerArguments(c, settings.planner, INTENT_FIELD)]),
  );
  const answers = new Map<string, { caseId: string; args: JsonObject }>();
  for (const benchCase of set.cases) {
    const tool = expectedToolOf(benchCase);
    const { [INTENT_FIELD]: _intent, ...partialArgs } = plannerArgs.get(benchCase.id)!;
    const prompt = renderBinderPrompt({
      tool: tool.name,
      description: tool.description,
      intent: benchCase.intent.trim(),
      partialArgs,
      schema: tool.inputSchema,
    });
    answers.set(prompt, {
      caseId: benchCase.id,
      args: oracleArguments(benchCase.expected[0]!.arguments),
    });
  }
  const context = { answers, seed: settings.seed, clock, env: options.env ?? process.env };
  const total = settings.binders.length * settings.budgetsMs.length * set.cases.length;
  const rows: BenchRow[] = [];
  const outcomes: BenchOutcome[] = [];
  let done = 0;
  // Every binder opens before any is measured: a missing key fails the run at once.
  const opened: OpenedBinder[] = [];
  try {
    for (const spec of settings.binders) opened.push(await openBinder(spec, context));
    for (const binder of opened) {
      const layer = (budgetMs: number): ToolCaller =>
        withNaturalLanguageExecutor({
          provider: binder.provider,
          model: binder.model,
          timeoutMs: budgetMs,
          binderFn: binder.binderFn,
          now: clock.now,
          timer: clock.timer,
        });
      const warm = layer(settings.budgetsMs.at(-1)!);
      for (let index = 0; index < settings.warmup && set.cases.length > 0; index += 1) {
        const benchCase = set.cases[index % set.cases.length]!;
        await bindCase(warm, benchCase, plannerArgs.get(benchCase.id)!);
      }
      for (const budgetMs of settings.budgetsMs) {
        const caller = layer(budgetMs);
        const measured = new Map<string, CaseOutcome>();
        await forEachConcurrently(set.cases, settings.concurrency, async (benchCase) => {
          measured.set(
            benchCase.id,
            await bindCase(caller, benchCase, plannerArgs.get(benchCase.id)!),
          );
          done += 1;
          options.onProgress?.({ done, total, binder: binder.label, budgetMs });
        });
        const ordered = set.cases.map((c) => measured.get(c.id)!);
        rows.push(summarizeOutcomes(binder, budgetMs, ordered));
        for (const outcome of ordered)
          outcomes.push({ binder: binder.label, budgetMs, ...outcome });
      }
    }
  } finally {
    await Promise.all(opened.map((binder) => binder.close()));
  }
  const binders = opened.map(({ binderFn: _fn, close: _close, ...info }): BinderInfo => info);
  const references = [
    referenceRow(
      'oracle',
      set.cases.map((c) => scoreArguments(c, oracleArguments(c.expected[0]!.arguments))),
    ),
    referenceRow(
      'no binder',
      set.cases.map((c) => {
        const { [INTENT_FIELD]: _intent, ...own } = plannerArgs.get(c.id)!;
        return scoreArguments(c, own);
      }),
    ),
  ];
  return {
    version: 1,
    clock: clock.virtual ? 'virtual' : 'wall',
    dataset: { source: set.source, cases: set.cases.length, excluded: set.excluded },
    planner: settings.planner,
    budgetsMs: settings.budgetsMs,
    concurrency: settings.concurrency,
    warmup: settings.warmup,
    seed: settings.seed,
    binders,
    rows,
    references,
    outcomes,
  };
}
