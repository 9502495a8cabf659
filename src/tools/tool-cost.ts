import { InvalidArgumentError } from '../errors.js';

/**
 * What a handler reports it spent (`runtime.reportCost`): money in US dollars, and a count of its
 * own unit (pages, queries, credits). Reports of one call add up.
 */
export interface ToolCost {
  /** US dollars, finite and not negative. */
  readonly usd?: number;
  /** A count of `unit`, finite and not negative. */
  readonly units?: number;
  /** What `units` counts; every report of a call that gives one must give the same. */
  readonly unit?: string;
}

/**
 * What a call cost, on its result (`ToolCallResult.usage`): the sums of what its handler reported
 * over every attempt (an attempt that failed may have spent too).
 */
export interface ToolUsage {
  /** US dollars the tool reported. */
  readonly toolCostUsd?: number;
  /** Units the tool reported, of `unit` when it named one. */
  readonly units?: number;
  readonly unit?: string;
  /**
   * The call's share of its model turn's tokens (input and output), set by `agentLoop` on the
   * run's results: the turn's tokens split equally across its calls (docs/agent-loop.md).
   */
  readonly modelTokens?: number;
  /** The input (prompt) part of `modelTokens`, split the same way. */
  readonly modelInputTokens?: number;
  /** The output (completion) part of `modelTokens`, split the same way. */
  readonly modelOutputTokens?: number;
  /**
   * The tool reported dollars but does not declare `safety.spend`: the execution policy never
   * saw it as a tool that charges (`spend.charge`). The cost is kept; fix the declaration.
   */
  readonly undeclaredSpend?: true;
}

function checkAmount(cost: ToolCost, field: 'usd' | 'units'): void {
  const amount = cost[field];
  if (amount === undefined) return;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
    throw new InvalidArgumentError(
      'cost',
      `reportCost: ${field} must be a finite number ≥ 0, got ${String(amount)}`,
    );
  }
}

/** The sums of a call's cost reports. Throws `InvalidArgumentError` on a report it cannot add. */
export class CostTally {
  #usd: number | undefined;
  #units: number | undefined;
  #unit: string | undefined;

  /**
   * Adds one report to the call's total.
   * @throws InvalidArgumentError for a negative or non-finite amount, an empty unit, or a unit
   * other than the call's earlier reports'.
   */
  add(cost: ToolCost): void {
    if (typeof cost !== 'object' || cost === null) {
      throw new InvalidArgumentError('cost', 'reportCost takes an object { usd?, units?, unit? }');
    }
    checkAmount(cost, 'usd');
    checkAmount(cost, 'units');
    const { unit } = cost;
    if (unit !== undefined && (typeof unit !== 'string' || unit === '')) {
      throw new InvalidArgumentError('cost', 'reportCost: unit must be a non-empty string');
    }
    if (unit !== undefined && this.#unit !== undefined && unit !== this.#unit) {
      throw new InvalidArgumentError(
        'cost',
        `reportCost: this call counts units of "${this.#unit}", not "${unit}"`,
      );
    }
    if (cost.usd !== undefined) this.#usd = (this.#usd ?? 0) + cost.usd;
    if (cost.units !== undefined) this.#units = (this.#units ?? 0) + cost.units;
    this.#unit ??= unit;
  }

  /** The reports' sums, as one report (for an executor that carries them elsewhere). */
  total(): ToolCost | undefined {
    if (this.#usd === undefined && this.#units === undefined) return undefined;
    const total: { -readonly [Key in keyof ToolCost]: ToolCost[Key] } = {};
    if (this.#usd !== undefined) total.usd = this.#usd;
    if (this.#units !== undefined) total.units = this.#units;
    if (this.#unit !== undefined) total.unit = this.#unit;
    return total;
  }

  /**
   * The usage the reports add up to, flagged when a tool that does not declare `spend` charged;
   * undefined when no report was counted.
   */
  usage(declaresSpend: boolean): ToolUsage | undefined {
    if (this.#usd === undefined && this.#units === undefined) return undefined;
    const usage: { -readonly [Key in keyof ToolUsage]: ToolUsage[Key] } = {};
    if (this.#usd !== undefined) usage.toolCostUsd = this.#usd;
    if (this.#units !== undefined) usage.units = this.#units;
    if (this.#unit !== undefined) usage.unit = this.#unit;
    if (!declaresSpend && (this.#usd ?? 0) > 0) usage.undeclaredSpend = true;
    return usage;
  }
}
