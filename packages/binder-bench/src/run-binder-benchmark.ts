import type { JsonObject, ToolCaller } from 'switchyard';
import { InvalidOptionError, ToolDefinitionError, withNaturalLanguageExecutor } from 'switchyard';
import { renderBinderPrompt } from 'switchyard/middleware';
import { defaultSchemaValidator } from 'switchyard/tools';
import { type BenchCase, type BenchCaseSet, expectedToolOf } from './bench-case.js';
import { realClock } from './bench-clock.js';
import { bindCase, type CaseOutcome, scoreArguments } from './bind-case.js';
import {
  type BenchOutcome,
  type BinderBenchmarkOptions,
  type BinderBenchmarkResult,
  checkedBenchOptions,
} from './binder-benchmark-options.js';
import { oracleArguments } from './match-arguments.js';
import { type BinderInfo, type OpenedBinder, openBinder } from './open-binder.js';
import { plannerArguments } from './planner-call.js';
import { sampleCases } from './sample-cases.js';
import { type BenchRow, referenceRow, summarizeOutcomes } from './summarize-outcomes.js';

const INTENT_FIELD = '_nl_intent';

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
  const settings = checkedBenchOptions(options);
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
    for (const spec of settings.binders) {
      const binder = await openBinder(spec, context);
      opened.push(binder);
      // Rows, outcomes and plots are keyed by label.
      if (opened.some((other) => other !== binder && other.label === binder.label)) {
        throw new InvalidOptionError(
          'binders',
          `runBinderBenchmark: two binders are labelled ${JSON.stringify(binder.label)}; give one a label of its own`,
        );
      }
    }
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
