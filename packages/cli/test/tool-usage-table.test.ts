import type { ToolCallResult } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { formatBatchSummary, summarizeBatch } from '../src/batch-summary.js';
import type { Prices } from '../src/price-table.js';
import { pricedOutcome, type TaskOutcome } from '../src/task-outcome.js';
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

function summary(outcomes: readonly TaskOutcome[], prices?: Prices) {
  return summarizeBatch({
    outcomes,
    tasks: outcomes.length,
    skipped: 0,
    interrupted: 0,
    badLines: 0,
    throttled: 0,
    wallMs: 10,
    ...(prices === undefined ? {} : { prices }),
  });
}

const tokens = (input: number, output: number) => ({
  modelTokens: input + output,
  modelInputTokens: input,
  modelOutputTokens: output,
});

describe('the batch summary’s per-tool table', () => {
  it('adds up calls, tool dollars and model tokens per tool across tasks', () => {
    const batch = summary([
      outcome('a', [
        result('web_search', { toolCostUsd: 0.01, ...tokens(30, 10) }),
        result('calc', tokens(30, 10)),
      ]),
      outcome('b', [
        result('web_search', { toolCostUsd: 0.02, ...tokens(20, 10) }),
        result('calc'),
      ]),
    ]);
    expect(batch.toolUsage.web_search).toMatchObject({
      calls: 2,
      usd: 0.03,
      unreportedCalls: 0,
      modelTokens: 70,
      modelInputTokens: 50,
      modelOutputTokens: 20,
      modelUsd: null,
    });
    expect(batch.toolUsage.calc).toMatchObject({
      calls: 2,
      usd: 0,
      unreportedCalls: 2,
      modelTokens: 40,
    });
    const text = formatBatchSummary(batch);
    expect(text).toMatch(/tool\s+calls\s+tool USD\s+model tokens\n/);
    expect(text).toMatch(/web_search\s+2\s+\$0\.0300\s+70\n/);
    expect(text).toMatch(/calc\s+2\s+\$0\.0000\s+40\n/);
  });

  it('prices each tool’s input and output tokens apart, adds per-call prices, and sorts by total', () => {
    const prices: Prices = {
      model: { inputPerMillion: 3, outputPerMillion: 15 },
      perCall: { summarize: 0.01, web_search: 0.5 },
    };
    const batch = summary(
      [
        outcome('a', [
          // Reported a cost: charged what it reported, never its perCall price as well.
          result('web_search', { toolCostUsd: 0.002, ...tokens(1000, 0) }),
          // Reported nothing: charged its perCall price.
          result('web_search', tokens(1000, 0)),
          result('summarize', tokens(0, 1000)),
        ]),
        outcome('b', [result('summarize', tokens(0, 1000)), result('free', tokens(100_000, 0))]),
      ],
      prices,
    );
    expect(Object.keys(batch.toolUsage)).toEqual(['web_search', 'free', 'summarize']);
    const { web_search: search, summarize, free } = batch.toolUsage;
    expect(search?.toolUsd).toBeCloseTo(0.502, 10);
    expect(search?.modelUsd).toBeCloseTo(0.006, 10);
    expect(search?.totalUsd).toBeCloseTo(0.508, 10);
    expect(summarize?.toolUsd).toBeCloseTo(0.02, 10);
    expect(summarize?.modelUsd).toBeCloseTo(0.03, 10);
    expect(free).toMatchObject({ toolUsd: 0 });
    expect(free?.modelUsd).toBeCloseTo(0.3, 10);
    const text = formatBatchSummary(batch);
    expect(text).toMatch(/tool\s+calls\s+tool USD\s+model tokens\s+model USD\s+total USD\n/);
    expect(text).toMatch(/web_search\s+2\s+\$0\.5020\s+2000\s+\$0\.0060\s+\$0\.5080\n/);
    expect(text.indexOf('web_search')).toBeLessThan(text.indexOf('free'));
    expect(text.indexOf('free')).toBeLessThan(text.indexOf('summarize'));
  });

  it('prices per call with no model prices: the model column says so', () => {
    const batch = summary([outcome('a', [result('summarize'), result('calc')])], {
      perCall: { summarize: 0.25 },
    });
    expect(batch.toolUsage.summarize).toMatchObject({
      toolUsd: 0.25,
      modelUsd: null,
      totalUsd: 0.25,
    });
    expect(batch.costUsd).toBeNull();
    expect(formatBatchSummary(batch)).toMatch(/summarize\s+1\s+\$0\.2500\s+0\s+-\s+\$0\.2500\n/);
  });

  it('gives each task’s line its priced table and the sum of its tools', () => {
    const line = pricedOutcome(
      outcome('a', [
        result('web_search', { toolCostUsd: 0.01, ...tokens(1000, 100) }),
        result('summarize', tokens(1000, 100)),
      ]),
      { model: { inputPerMillion: 1, outputPerMillion: 10 }, perCall: { summarize: 0.05 } },
    );
    expect(line.toolCost?.calls).toBe(2);
    expect(line.toolCost?.toolUsd).toBeCloseTo(0.06, 10);
    expect(line.toolCost?.modelUsd).toBeCloseTo(0.004, 10);
    expect(line.toolCost?.totalUsd).toBeCloseTo(0.064, 10);
    expect(Object.keys(line.toolUsage ?? {})).toEqual(['summarize', 'web_search']);
    // The batch adds the counts up again, not the dollars a line carries.
    const batch = summary([line, line], { perCall: {} });
    expect(batch.toolUsage.summarize).toMatchObject({ calls: 2, toolUsd: 0, unreportedCalls: 2 });
  });

  it('prints no table when no tool was called, and reads result lines written without one', () => {
    const { toolUsage: _left, ...older } = outcome('a', []);
    const batch = summary([older]);
    expect(batch.toolUsage).toEqual({});
    expect(formatBatchSummary(batch)).not.toContain('tool USD');
    const legacy = {
      ...outcome('b', []),
      toolUsage: { calc: { calls: 2, usd: 0.5, modelTokens: 9 } },
    };
    expect(summary([legacy], { perCall: { calc: 1 } }).toolUsage.calc).toMatchObject({
      calls: 2,
      toolUsd: 0.5,
    });
  });

  it('writes dollars as the amounts their sums add up to, not binary-fraction residue', () => {
    const calls = [0.003, 0.003, 0.003].map((usd) => result('geocode', { toolCostUsd: usd }));
    expect(0.003 + 0.003 + 0.003).not.toBe(0.009);
    const batch = summary([outcome('a', calls)], { perCall: {} });
    expect(batch.toolUsage.geocode).toMatchObject({ usd: 0.009, toolUsd: 0.009, totalUsd: 0.009 });
    const line = pricedOutcome(outcome('a', calls), { perCall: {} });
    expect(line.toolCost).toMatchObject({ toolUsd: 0.009, totalUsd: 0.009 });
  });
});
