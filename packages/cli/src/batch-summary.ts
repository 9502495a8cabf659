import { hasPrices, type Prices } from './price-table.js';
import type { TaskOutcome } from './task-outcome.js';
import { succeeded } from './task-outcome.js';
import {
  formatToolCosts,
  type PricedToolTable,
  priceToolUsage,
  roundUsd,
} from './tool-cost-table.js';
import { mergeToolUsage } from './tool-usage-table.js';

/** What `switchyard batch` reports at the end. */
export interface BatchRunSummary {
  readonly tasks: number;
  /** Tasks an earlier run had finished (skipped this time). */
  readonly skipped: number;
  readonly succeeded: number;
  readonly failed: number;
  /**
   * Tasks stopped at a call that may or may not have taken effect (`switchyard in-doubt`); never
   * counted as succeeded, they go on when the batch runs again after an operator resolved them.
   */
  readonly inDoubt: number;
  /** Tasks parked until calls are approved or denied (`switchyard approvals`). */
  readonly awaitingApproval: number;
  /** Tasks stopped by Ctrl-C, to resume. */
  readonly interrupted: number;
  readonly badLines: number;
  readonly toolCalls: number;
  /**
   * Per tool (this run's tasks): calls, tool and model tokens and dollars; most expensive first
   * when prices are known, else most calls first.
   */
  readonly toolUsage: PricedToolTable;
  /** Whether prices were given (flags or `--prices`): the table then shows model and total dollars. */
  readonly priced: boolean;
  /** Task latency of this run's tasks, ms. */
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly max: number };
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** USD of the model's tokens, when model prices were given. */
  readonly costUsd: number | null;
  /** 429 answers the model limiter waited out. */
  readonly throttled: number;
  readonly wallMs: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/** Sums up this run's outcomes. */
export function summarizeBatch(input: {
  readonly outcomes: readonly TaskOutcome[];
  readonly tasks: number;
  readonly skipped: number;
  readonly interrupted: number;
  readonly badLines: number;
  readonly throttled: number;
  readonly wallMs: number;
  /** Default: none (no dollars but what the tools reported). */
  readonly prices?: Prices;
}): BatchRunSummary {
  const { outcomes } = input;
  const prices = input.prices ?? { perCall: {} };
  const model = prices.model;
  const latencies = outcomes.map((outcome) => outcome.latencyMs).sort((a, b) => a - b);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let ok = 0;
  let inDoubt = 0;
  let awaitingApproval = 0;
  let toolCalls = 0;
  for (const outcome of outcomes) {
    usage.inputTokens += outcome.usage.inputTokens;
    usage.outputTokens += outcome.usage.outputTokens;
    toolCalls += outcome.toolCalls;
    if (succeeded(outcome)) ok += 1;
    else if (outcome.status === 'in_doubt') inDoubt += 1;
    else if (outcome.status === 'interrupted') awaitingApproval += 1;
  }
  return {
    tasks: input.tasks,
    skipped: input.skipped,
    succeeded: ok,
    failed: outcomes.length - ok - inDoubt - awaitingApproval,
    inDoubt,
    awaitingApproval,
    interrupted: input.interrupted,
    badLines: input.badLines,
    toolCalls,
    toolUsage: priceToolUsage(mergeToolUsage(outcomes.map((outcome) => outcome.toolUsage)), prices),
    priced: hasPrices(prices),
    latencyMs: {
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      max: latencies.at(-1) ?? 0,
    },
    usage,
    costUsd:
      model === undefined
        ? null
        : roundUsd(
            (usage.inputTokens * model.inputPerMillion +
              usage.outputTokens * model.outputPerMillion) /
              1e6,
          ),
    throttled: input.throttled,
    wallMs: input.wallMs,
  };
}

/** The summary as text. */
export function formatBatchSummary(summary: BatchRunSummary): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    `tasks      ${summary.tasks}: ${summary.succeeded} succeeded, ${summary.failed} failed${summary.inDoubt > 0 ? `, ${summary.inDoubt} in doubt (see switchyard in-doubt)` : ''}${summary.awaitingApproval > 0 ? `, ${summary.awaitingApproval} awaiting approval (see switchyard approvals)` : ''}${summary.skipped > 0 ? `, ${summary.skipped} finished earlier` : ''}${summary.interrupted > 0 ? `, ${summary.interrupted} interrupted (run again to resume)` : ''}${summary.badLines > 0 ? ` (+${summary.badLines} unreadable lines)` : ''}`,
    `tool calls ${summary.toolCalls}`,
    `latency    p50 ${seconds(summary.latencyMs.p50)}  p95 ${seconds(summary.latencyMs.p95)}  max ${seconds(summary.latencyMs.max)}`,
    `tokens     ${summary.usage.inputTokens} in, ${summary.usage.outputTokens} out${summary.costUsd === null ? '' : `  cost $${summary.costUsd.toFixed(4)}`}${summary.throttled > 0 ? `  (${summary.throttled} rate-limit waits)` : ''}`,
    `wall       ${seconds(summary.wallMs)}`,
  ];
  const table = formatToolCosts(summary.toolUsage, summary.priced);
  if (table.length > 0) lines.push('', ...table);
  return `\n${lines.join('\n')}\n`;
}
