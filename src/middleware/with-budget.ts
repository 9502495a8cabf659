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
  /** Most model tokens the tool's calls let through may carry (`ToolCallEnvelope.modelTokens`). */
  readonly maxTokens?: number;
}

/** Options of `withBudget`. At least one budget is required. */
export interface BudgetOptions {
  /** Most dollars the calls through this layer may report, all tools together. */
  readonly maxUsd?: number;
  /**
   * Most model tokens the calls this layer lets through may carry, all tools together: each
   * call's share of its model turn's tokens (`ToolCallEnvelope.modelTokens`, input and output).
   */
  readonly maxTokens?: number;
  /** Budgets per tool (canonical name), on top of `maxUsd` and `maxTokens`. */
  readonly perTool?: Readonly<Record<string, ToolBudget>>;
}

const FACTORY = 'withBudget';
const LAYER = 'with_budget';

interface Limits {
  readonly maxUsd: number | undefined;
  readonly maxCalls: number | undefined;
  readonly maxTokens: number | undefined;
}

/** What one tool (or the whole layer) has used so far. */
class Spent {
  usd = 0;
  calls = 0;
  tokens = 0;
}

/** Which limit a call would break. */
type Breach = 'usd' | 'calls' | 'tokens';

function optionalLimit(option: string, value: unknown, integer: boolean): number | undefined {
  return value === undefined ? undefined : checkNonNegative(FACTORY, option, value, { integer });
}

function readLimits(option: string, value: unknown): Limits {
  if (!isPlainObject(value)) {
    throw new InvalidOptionError(
      option,
      `${FACTORY}: ${option} must be { maxUsd?, maxCalls?, maxTokens? }`,
    );
  }
  return {
    maxUsd: optionalLimit(`${option}.maxUsd`, value.maxUsd, false),
    maxCalls: optionalLimit(`${option}.maxCalls`, value.maxCalls, true),
    maxTokens: optionalLimit(`${option}.maxTokens`, value.maxTokens, true),
  };
}

/** The call's share of its model turn's tokens; zero when it carries none. */
function tokensOf(call: ToolCallEnvelope): number {
  const share = call.modelTokens;
  return share === undefined ? 0 : share.inputTokens + share.outputTokens;
}

/**
 * The limit `spent` breaks if a call carrying `tokens` goes through: dollars and calls once spent;
 * tokens once spent, or when the call's share would take them past the budget.
 */
function breachOf(spent: Spent, limits: Limits, tokens: number): Breach | null {
  if (limits.maxCalls !== undefined && spent.calls >= limits.maxCalls) return 'calls';
  if (limits.maxUsd !== undefined && spent.usd >= limits.maxUsd) return 'usd';
  if (
    limits.maxTokens !== undefined &&
    (spent.tokens >= limits.maxTokens || spent.tokens + tokens > limits.maxTokens)
  ) {
    return 'tokens';
  }
  return null;
}

/** What was spent of the limit a call broke, as the model reads it. */
function spentText(breach: Breach, spent: Spent, limits: Limits, tokens: number): string {
  if (breach === 'calls') return `${spent.calls} of ${limits.maxCalls} calls`;
  if (breach === 'usd') return `$${spent.usd.toFixed(2)} of $${limits.maxUsd?.toFixed(2)}`;
  const share = tokens > 0 ? `; this call carries ${tokens}` : '';
  return `${spent.tokens} of ${limits.maxTokens} model tokens${share}`;
}

/**
 * Refuses calls once a budget is spent: dollars the tools reported (`runtime.reportCost`, read
 * from each result's `usage.toolCostUsd`), model tokens (each call's share of its model turn's
 * tokens, `ToolCallEnvelope.modelTokens`), for the layer as a whole or per tool, and calls per
 * tool. Budgets last as long as the layer instance: make one per run (under `agentLoop`, one per
 * `agentLoop` call, so a run's budget is that run's). A refused call short-circuits with status
 * `budget_exceeded` (wire category `permission_denied`) and an error the model can act on:
 * `the web_search budget is spent ($0.50 of $0.50): answer with what you have`.
 *
 * Calls and tokens are counted as calls enter, so `maxCalls` and `maxTokens` hold under any
 * concurrency and a refused call never runs: a call is refused once the tokens counted reach
 * `maxTokens`, or when its own share would take them past it. A call carries a share only when
 * its turn's usage was known as it was dispatched (calls held until a streamed response ended,
 * `dispatchTurn` given `modelUsage`); calls without one (started while the model streamed,
 * dispatched alone) count zero tokens. Dollars are known only once a call returns: a call is
 * refused when the calls that finished have spent the budget, so calls already running when it
 * runs out may take the spend past it. Calls the executor will refuse anyway (unknown tool,
 * unreadable arguments) are not counted.
 *
 * Layer entry: ok `{ name: 'with_budget', status: 'ok', spentUsd, spentTokens?, calls? }` (after
 * the call; `spentTokens` with a token budget); refused `{ status: 'blocked', scope: 'run' |
 * 'tool', spentUsd, spentTokens?, calls?, maxUsd?, maxCalls?, maxTokens? }`.
 *
 * Throws `InvalidOptionError` for a negative or non-finite budget, a token or call budget that is
 * not an integer, or no budget at all.
 *
 * @example
 * withBudget({ maxUsd: 2, maxTokens: 200_000, perTool: { web_search: { maxUsd: 0.5, maxCalls: 20 } } });
 */
export function withBudget(options: BudgetOptions): ToolCaller {
  return stageLayer(budgetStage(options));
}

/** The stage of `withBudget`. */
export function budgetStage(options: BudgetOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  if (
    settings.maxUsd === undefined &&
    settings.maxTokens === undefined &&
    settings.perTool === undefined
  ) {
    throw new InvalidOptionError(
      'maxUsd',
      `${FACTORY}: give maxUsd, maxTokens or perTool (or several)`,
    );
  }
  const run: Limits = {
    maxUsd: optionalLimit('maxUsd', settings.maxUsd, false),
    maxCalls: undefined,
    maxTokens: optionalLimit('maxTokens', settings.maxTokens, true),
  };
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

  /** Token counts go in the entries of a layer that has a token budget. */
  function countsTokens(limits: Limits | undefined): boolean {
    return run.maxTokens !== undefined || limits?.maxTokens !== undefined;
  }

  function refused(
    call: ToolCallEnvelope,
    scope: 'run' | 'tool',
    breach: Breach,
    { spent, limits, tokens }: { spent: Spent; limits: Limits; tokens: number },
  ) {
    const subject =
      scope === 'tool' ? `the ${call.toolName} budget` : 'the tool budget of this run';
    const layer: AuditLayer = {
      name: LAYER,
      status: 'blocked',
      scope,
      spentUsd: spent.usd,
      ...(countsTokens(limits) ? { spentTokens: spent.tokens } : {}),
      ...(scope === 'tool' ? { calls: spent.calls } : {}),
      ...(limits.maxUsd === undefined ? {} : { maxUsd: limits.maxUsd }),
      ...(limits.maxCalls === undefined ? {} : { maxCalls: limits.maxCalls }),
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
    };
    return shortCircuitResult(call, {
      status: 'budget_exceeded',
      // The wire word itself: `budget_exceeded` as a category names a host bridge's own budget.
      errorCategory: 'permission_denied',
      error: `${subject} is spent (${spentText(breach, spent, limits, tokens)}): answer with what you have`,
      audit: { layers: [layer] },
    });
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return refusedPassage(call);
      const tokens = tokensOf(call);
      const overRun = breachOf(overall, run, tokens);
      if (overRun !== null)
        return refused(call, 'run', overRun, { spent: overall, limits: run, tokens });
      const limits = perTool.get(call.toolName);
      const tool = limits === undefined ? undefined : spentBy(call.toolName);
      if (tool !== undefined && limits !== undefined) {
        const overTool = breachOf(tool, limits, tokens);
        if (overTool !== null)
          return refused(call, 'tool', overTool, { spent: tool, limits, tokens });
        tool.calls += 1;
        tool.tokens += tokens;
      }
      overall.tokens += tokens;
      const withTokens = countsTokens(limits);
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
          if (withTokens) layer.spentTokens = overall.tokens;
          if (tool !== undefined) layer.calls = tool.calls;
          return audit.record(result, layer);
        },
      });
    },
  };
}
