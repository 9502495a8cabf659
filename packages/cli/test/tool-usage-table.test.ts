import type { ToolCallResult } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { formatBatchSummary, summarizeBatch } from '../src/batch-summary.js';
import type { TaskOutcome } from '../src/task-outcome.js';
import { toolUsageOf } from '../src/tool-usage-table.js';

function result(toolName: string, usage?: ToolCallResult['usage']): ToolCallResult {
  return { toolName, ...(usage === undefined ? {} : { usage }) } as ToolCallResult;
}

function outcome(id: string, results: readonly ToolCallResult[]): TaskOutcome {
  return {
    id,
    status: 'completed',
    text: '',
    turns: 1,
    toolCalls: results.length,
    failedToolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    toolUsage: toolUsageOf(results),
    latencyMs: 1,
    error: null,
    resumed: null,
  };
}

describe('the batch summary’s per-tool table', () => {
  it('adds up calls, tool dollars and model tokens per tool across tasks', () => {
    const summary = summarizeBatch({
      outcomes: [
        outcome('a', [
          result('web_search', { toolCostUsd: 0.01, modelTokens: 40 }),
          result('calc', { modelTokens: 40 }),
        ]),
        outcome('b', [
          result('web_search', { toolCostUsd: 0.02, modelTokens: 30 }),
          result('calc'),
        ]),
      ],
      tasks: 2,
      skipped: 0,
      interrupted: 0,
      badLines: 0,
      throttled: 0,
      wallMs: 10,
    });
    expect(summary.toolUsage).toEqual({
      calc: { calls: 2, usd: 0, modelTokens: 40 },
      web_search: { calls: 2, usd: 0.03, modelTokens: 70 },
    });
    const text = formatBatchSummary(summary);
    expect(text).toMatch(/tool\s+calls\s+tool USD\s+model tokens/);
    expect(text).toMatch(/web_search\s+2\s+\$0\.0300\s+70/);
    expect(text).toMatch(/calc\s+2\s+\$0\.0000\s+40/);
  });

  it('prints no table when no tool was called, and reads result lines written without one', () => {
    const { toolUsage: _left, ...older } = outcome('a', []);
    const summary = summarizeBatch({
      outcomes: [older],
      tasks: 1,
      skipped: 0,
      interrupted: 0,
      badLines: 0,
      throttled: 0,
      wallMs: 1,
    });
    expect(summary.toolUsage).toEqual({});
    expect(formatBatchSummary(summary)).not.toContain('tool USD');
  });
});
