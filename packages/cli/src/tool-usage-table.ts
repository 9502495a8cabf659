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

/** What a row counts; each is summed over the rows of a tool (absent ones read as 0). */
const COUNTED = [
  'calls',
  'usd',
  'unreportedCalls',
  'modelTokens',
  'modelInputTokens',
  'modelOutputTokens',
] as const satisfies readonly (keyof ToolUsageRow)[];

type Counts = { -readonly [Key in (typeof COUNTED)[number]]: number };

/** The counts of a row alone: what `addUp` sums (a priced row's dollars are worked out again). */
function countsOf(row: ToolUsageRow): Counts {
  return Object.fromEntries(COUNTED.map((key) => [key, row[key] ?? 0])) as Counts;
}

function addUp(rows: readonly (readonly [string, ToolUsageRow])[]): ToolUsageTable {
  const table = new Map<string, Counts>();
  for (const [name, row] of rows) {
    const counts = countsOf(row);
    const sum = table.get(name);
    if (sum === undefined) table.set(name, counts);
    else for (const key of COUNTED) sum[key] += counts[key];
  }
  return Object.fromEntries([...table].sort(([a], [b]) => a.localeCompare(b)));
}
