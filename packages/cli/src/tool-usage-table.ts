import type { ToolCallResult } from 'switchyard';

/** What one tool's calls came to: calls, the dollars its tool reported, its model tokens. */
export interface ToolUsageRow {
  readonly calls: number;
  /** Dollars the tool reported (`usage.toolCostUsd`). */
  readonly usd: number;
  /** The calls' shares of their model turns' tokens (`usage.modelTokens`). */
  readonly modelTokens: number;
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
        modelTokens: result.usage?.modelTokens ?? 0,
      },
    ]),
  );
}

/** Several tables added into one (the batch's, from its tasks'). */
export function mergeToolUsage(tables: readonly (ToolUsageTable | undefined)[]): ToolUsageTable {
  return addUp(tables.flatMap((table) => Object.entries(table ?? {})));
}

function addUp(rows: readonly (readonly [string, ToolUsageRow])[]): ToolUsageTable {
  const table = new Map<string, ToolUsageRow>();
  for (const [name, row] of rows) {
    const sum = table.get(name) ?? { calls: 0, usd: 0, modelTokens: 0 };
    table.set(name, {
      calls: sum.calls + row.calls,
      usd: sum.usd + row.usd,
      modelTokens: sum.modelTokens + row.modelTokens,
    });
  }
  return Object.fromEntries([...table].sort(([a], [b]) => a.localeCompare(b)));
}

/** The table as text: a line per tool, most calls first; empty when no tool was called. */
export function formatToolUsage(table: ToolUsageTable): string[] {
  const rows = Object.entries(table).sort(([, a], [, b]) => b.calls - a.calls);
  if (rows.length === 0) return [];
  const width = Math.max(4, ...rows.map(([name]) => name.length));
  return [
    `${'tool'.padEnd(width)}  ${'calls'.padStart(6)}  ${'tool USD'.padStart(10)}  ${'model tokens'.padStart(12)}`,
    ...rows.map(
      ([name, row]) =>
        `${name.padEnd(width)}  ${String(row.calls).padStart(6)}  ${`$${row.usd.toFixed(4)}`.padStart(10)}  ${String(row.modelTokens).padStart(12)}`,
    ),
  ];
}
