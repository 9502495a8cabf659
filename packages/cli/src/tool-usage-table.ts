import type { ToolCallResult } from 'switchyard';

/** What one tool's calls came to: calls, the dollars its tool reported, its model tokens. */
export interface ToolUsageRow {
  readonly calls: number;
  /** Dollars the tool reported (`usage.toolCostUsd`). */
  readonly usd: number;
  /**
   * Calls whose tool reported no dollars: a price table's `perCall` price applies to these only
   * (absent on lines of older runs: read as 0).
   */
  readonly unreportedCalls?: number;
  /** The calls' shares of their model turns' tokens (`usage.modelTokens`). */
  readonly modelTokens: number;
  /** The input part of `modelTokens` (`usage.modelInputTokens`; absent on older lines). */
  readonly modelInputTokens?: number;
  /** The output part of `modelTokens` (`usage.modelOutputTokens`; absent on older lines). */
  readonly modelOutputTokens?: number;
}

/** Per tool name, what its calls came to. */
export type ToolUsageTable = Readonly<Record<string, ToolUsageRow>>;

/** The table of one run's results. */
export function toolUsageOf(results: readonly ToolCallResult[]): ToolUsageTable {
  return addUp(
    results.map((result) => [
      result.toolName,
      {
        calls: 1,
        usd: result.usage?.toolCostUsd ?? 0,
        unreportedCalls: result.usage?.toolCostUsd === undefined ? 1 : 0,
        modelTokens: result.usage?.modelTokens ?? 0,
        modelInputTokens: result.usage?.modelInputTokens ?? 0,
        modelOutputTokens: result.usage?.modelOutputTokens ?? 0,
      },
    ]),
  );
}

/** Several tables added into one (the batch's, from its tasks'). */
export function mergeToolUsage(tables: readonly (ToolUsageTable | undefined)[]): ToolUsageTable {
  return addUp(tables.flatMap((table) => Object.entries(table ?? {})));
}

/** The counts of a row alone: what `addUp` sums (a priced row's dollars are worked out again). */
function countsOf(row: ToolUsageRow): Required<ToolUsageRow> {
  return {
    calls: row.calls,
    usd: row.usd,
    unreportedCalls: row.unreportedCalls ?? 0,
    modelTokens: row.modelTokens,
    modelInputTokens: row.modelInputTokens ?? 0,
    modelOutputTokens: row.modelOutputTokens ?? 0,
  };
}

function addUp(rows: readonly (readonly [string, ToolUsageRow])[]): ToolUsageTable {
  const table = new Map<string, Required<ToolUsageRow>>();
  for (const [name, row] of rows) {
    const sum = table.get(name);
    const counts = countsOf(row);
    table.set(
      name,
      sum === undefined
        ? counts
        : {
            calls: sum.calls + counts.calls,
            usd: sum.usd + counts.usd,
            unreportedCalls: sum.unreportedCalls + counts.unreportedCalls,
            modelTokens: sum.modelTokens + counts.modelTokens,
            modelInputTokens: sum.modelInputTokens + counts.modelInputTokens,
            modelOutputTokens: sum.modelOutputTokens + counts.modelOutputTokens,
          },
    );
  }
  return Object.fromEntries([...table].sort(([a], [b]) => a.localeCompare(b)));
}
