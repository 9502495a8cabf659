import { hasPrices, type Prices } from './price-table.js';
import type { ToolUsageRow, ToolUsageTable } from './tool-usage-table.js';

/** A tool's row with its dollars worked out from the prices. */
export interface PricedToolRow extends ToolUsageRow {
  /** What the tool reported, plus its `perCall` price for each call that reported nothing. */
  readonly toolUsd: number;
  /** Its input tokens × the input price + its output tokens × the output price; null: no model prices. */
  readonly modelUsd: number | null;
  /** `toolUsd` + `modelUsd`. */
  readonly totalUsd: number;
}

/** Per tool name, priced; most expensive first when prices are known, else most calls first. */
export type PricedToolTable = Readonly<Record<string, PricedToolRow>>;

/** What all the tools of a table came to: one task's, on its result line. */
export interface ToolCostTotal {
  readonly calls: number;
  readonly toolUsd: number;
  readonly modelUsd: number | null;
  readonly totalUsd: number;
}

/**
 * Dollars as they are written: rounded to 12 decimal places, far below any price, so that sums of
 * binary fractions read as the amounts they add up (0.009, not 0.009000000000000001).
 */
export function roundUsd(amount: number): number {
  return Math.round(amount * 1e12) / 1e12;
}

function priceRow(name: string, row: ToolUsageRow, prices: Prices): PricedToolRow {
  const perCall = Object.hasOwn(prices.perCall, name) ? (prices.perCall[name] ?? 0) : 0;
  const toolUsd = row.usd + perCall * (row.unreportedCalls ?? 0);
  const modelUsd =
    prices.model === undefined
      ? null
      : ((row.modelInputTokens ?? 0) * prices.model.inputPerMillion +
          (row.modelOutputTokens ?? 0) * prices.model.outputPerMillion) /
        1e6;
  return {
    ...row,
    usd: roundUsd(row.usd),
    toolUsd: roundUsd(toolUsd),
    modelUsd: modelUsd === null ? null : roundUsd(modelUsd),
    totalUsd: roundUsd(toolUsd + (modelUsd ?? 0)),
  };
}

/** The table with each row's dollars, in the order it is shown. */
export function priceToolUsage(table: ToolUsageTable, prices: Prices): PricedToolTable {
  const byCost = hasPrices(prices);
  const rows = Object.entries(table).map(
    ([name, row]) => [name, priceRow(name, row, prices)] as const,
  );
  rows.sort(
    ([nameA, a], [nameB, b]) =>
      (byCost ? b.totalUsd - a.totalUsd : 0) || b.calls - a.calls || nameA.localeCompare(nameB),
  );
  return Object.fromEntries(rows);
}

/** The sum of a priced table's rows. */
export function totalToolCost(table: PricedToolTable): ToolCostTotal {
  const rows = Object.values(table);
  const modelUsd = rows.some((row) => row.modelUsd !== null)
    ? roundUsd(rows.reduce((sum, row) => sum + (row.modelUsd ?? 0), 0))
    : null;
  return {
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    toolUsd: roundUsd(rows.reduce((sum, row) => sum + row.toolUsd, 0)),
    modelUsd,
    totalUsd: roundUsd(rows.reduce((sum, row) => sum + row.totalUsd, 0)),
  };
}

const usd = (amount: number) => `$${amount.toFixed(4)}`;

/**
 * The table as text, a line per tool in the table's order; empty when no tool was called. With
 * `priced`, the model USD and total columns follow.
 */
export function formatToolCosts(table: PricedToolTable, priced: boolean): string[] {
  const rows = Object.entries(table);
  if (rows.length === 0) return [];
  const width = Math.max(4, ...rows.map(([name]) => name.length));
  const cells = (
    name: string,
    calls: string,
    tool: string,
    tokens: string,
    model: string,
    total: string,
  ) =>
    [name.padEnd(width), calls.padStart(6), tool.padStart(10), tokens.padStart(12)]
      .concat(priced ? [model.padStart(10), total.padStart(10)] : [])
      .join('  ');
  return [
    cells('tool', 'calls', 'tool USD', 'model tokens', 'model USD', 'total USD'),
    ...rows.map(([name, row]) =>
      cells(
        name,
        String(row.calls),
        usd(row.toolUsd),
        String(row.modelTokens),
        row.modelUsd === null ? '-' : usd(row.modelUsd),
        usd(row.totalUsd),
      ),
    ),
  ];
}
