import type { AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import { checkNonNegative, optionsObject } from '../option-checks.js';
import { isPlainObject } from '../tools/json.js';
import { type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { isCertainlyRefused, refusedPassage } from './refused-call.js';

/** One tool's budget in `withBudget`'s `perTool`. */
export interface ToolBudget {
  /** Most dollars the tool's calls may report (`usage.toolCostUsd`), in all. */
  readonly maxUsd?: number;
  /** Most calls of the tool this layer lets through. */
  readonly maxCalls?: number;
}

/** Options of `withBudget`. At least one budget is required. */
export interface BudgetOptions {
  /** Most dollars the calls through this layer may report, all tools together. */
  readonly maxUsd?: number;
  /** Budgets per tool (canonical name), on top of `maxUsd`. */
  readonly perTool?: Readonly<Record<string, ToolBudget>>;
}

const FACTORY = 'withBudget';
const LAYER = 'with_budget';

interface Limits {
  readonly maxUsd: number | undefined;
  readonly maxCalls: number | undefined;
}

/** What one tool (or the whole layer) has used so far. */
class Spent {
  usd = 0;
  calls = 0;
}

function readLimits(option: string, value: unknown): Limits {
  if (!isPlainObject(value)) {
    throw new InvalidOptionError(option, `${FACTORY}: ${option} must be { maxUsd?, maxCalls? }`);
  }
  return {
    maxUsd:
      value.maxUsd === undefined
        ? undefined
        : checkNonNegative(FACTORY, `${option}.maxUsd`, value.maxUsd),
    maxCalls:
      value.maxCalls === undefined
        ? undefined
        : checkNonNegative(FACTORY, `${option}.maxCalls`, value.maxCalls, { integer: true }),
  };
}

/**
 * Refuses calls once a budget is spent: dollars the tools reported (`runtime.reportCost`, read
 * from each result's `usage.toolCostUsd`) for the layer as a whole or per tool, and calls per
 * tool. Budgets last as long as the layer instance: make one per run. A refused call short-circuits
 * with status `budget_exceeded` (wire category `permission_denied`) and an error the model can act
 * on: `the web_search budget is spent ($0.50 of $0.50): answer with what you have`.
 *
 * Calls are counted as they enter, so `maxCalls` is exact under any concurrency. Dollars are known
 * only once a call returns: a call is refused when the calls that finished have spent the budget,
 * so calls already running when it runs out may take the spend past it. Calls the executor will
 * refuse anyway (unknown tool, unreadable arguments) are not counted.
 *
 * Layer entry: ok `{ name: 'with_budget', status: 'ok', spentUsd, calls? }` (after the call);
 * refused `{ status: 'blocked', scope: 'run' | 'tool', spentUsd, calls?, maxUsd?, maxCalls? }`.
 *
 * Throws `InvalidOptionError` for a negative or non-finite budget, or no budget at all.
 *
 * @example
 * withBudget({ maxUsd: 2, perTool: { web_search: { maxUsd: 0.5, maxCalls: 20 } } });
 */
export function withBudget(options: BudgetOptions): ToolCaller {
  return stageLayer(budgetStage(options));
}

/** The stage of `withBudget`. */
export function budgetStage(options: BudgetOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  if (settings.maxUsd === undefined && settings.perTool === undefined) {
    throw new InvalidOptionError('maxUsd', `${FACTORY}: give maxUsd, perTool or both`);
  }
  const maxUsd =
    settings.maxUsd === undefined
      ? undefined
      : checkNonNegative(FACTORY, 'maxUsd', settings.maxUsd);
  const perTool = new Map<string, Limits>();
  if (settings.perTool !== undefined) {
    if (!isPlainObject(settings.perTool)) {
      throw new InvalidOptionError('perTool', `${FACTORY}: perTool must be an object of budgets`);
    }
    for (const [name, limits] of Object.entries(settings.perTool)) {
      perTool.set(name, readLimits(`perTool.${name}`, limits));
    }
  }
  const overall = new Spent();
  const byTool = new Map<string, Spent>();

  function spentBy(toolName: string): Spent {
    let spent = byTool.get(toolName);
    if (spent === undefined) {
      spent = new Spent();
      byTool.set(toolName, spent);
    }
    return spent;
  }

  function refused(call: ToolCallEnvelope, scope: 'run' | 'tool', spent: Spent, limits: Limits) {
    const overCalls = limits.maxCalls !== undefined && spent.calls >= limits.maxCalls;
    const what = overCalls
      ? `${spent.calls} of ${limits.maxCalls} calls`
      : `$${spent.usd.toFixed(2)} of $${limits.maxUsd?.toFixed(2)}`;
    const subject =
      scope === 'tool' ? `the ${call.toolName} budget` : 'the tool budget of this run';
    const layer: AuditLayer = {
      name: LAYER,
      status: 'blocked',
      scope,
      spentUsd: spent.usd,
      ...(scope === 'tool' ? { calls: spent.calls } : {}),
      ...(limits.maxUsd === undefined ? {} : { maxUsd: limits.maxUsd }),
      ...(limits.maxCalls === undefined ? {} : { maxCalls: limits.maxCalls }),
    };
    return shortCircuitResult(call, {
      status: 'budget_exceeded',
      // The wire word itself: `budget_exceeded` as a category names a host bridge's own budget.
      errorCategory: 'permission_denied',
      error: `${subject} is spent (${what}): answer with what you have`,
      audit: { layers: [layer] },
    });
  }

  function isSpent(spent: Spent, limits: Limits): boolean {
    return (
      (limits.maxUsd !== undefined && spent.usd >= limits.maxUsd) ||
      (limits.maxCalls !== undefined && spent.calls >= limits.maxCalls)
    );
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return refusedPassage(call);
      const run: Limits = { maxUsd, maxCalls: undefined };
      if (isSpent(overall, run)) return refused(call, 'run', overall, run);
      const limits = perTool.get(call.toolName);
      const tool = limits === undefined ? undefined : spentBy(call.toolName);
      if (tool !== undefined && limits !== undefined && isSpent(tool, limits)) {
        return refused(call, 'tool', tool, limits);
      }
      if (tool !== undefined) tool.calls += 1;
      return new Passage(call, {
        leave(result: ToolCallResult, audit) {
          const usd = result.usage?.toolCostUsd ?? 0;
          overall.usd += usd;
          if (tool !== undefined) tool.usd += usd;
          const layer: { name: string; status: string; [key: string]: unknown } = {
            name: LAYER,
            status: 'ok',
            spentUsd: overall.usd,
          };
          if (tool !== undefined) layer.calls = tool.calls;
          return audit.record(result, layer);
        },
      });
    },
  };
}
