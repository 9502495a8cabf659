import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import {
  composeToolCallers,
  createToolRegistry,
  defineTool,
  type ToolCallResult,
  withAuditLog,
  withTelemetry,
} from '../../src/index.js';
import type { ToolCallReceipt } from '../../src/middleware/receipts/index.js';
import type { ToolCallSpan } from '../../src/middleware/telemetry/tool-call-span.js';
import type { ToolCost, ToolSafety } from '../../src/tools/index.js';

const OBJECT = { type: 'object' } as const;

/** A tool that makes each report in `reports`, then answers (or throws `failure`). */
function reporting(
  reports: readonly ToolCost[],
  options: { safety?: ToolSafety; failure?: Error } = {},
) {
  return defineTool({
    name: 'search',
    description: 'paid search',
    inputSchema: OBJECT,
    safety: options.safety ?? { sideEffectLevel: 'network', spend: true },
    handler: async (_args, runtime) => {
      for (const report of reports) runtime.reportCost(report);
      if (options.failure !== undefined) throw options.failure;
      return 'found';
    },
  });
}

async function dispatchOne(tool: ReturnType<typeof reporting>): Promise<ToolCallResult> {
  const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
  return dispatcher.dispatch({ id: 'c1', name: 'search', arguments: {} });
}

describe('runtime.reportCost', () => {
  it('adds up a call’s reports on its result', async () => {
    const result = await dispatchOne(
      reporting([
        { usd: 0.002, units: 1, unit: 'query' },
        { usd: 0.003, units: 2 },
      ]),
    );
    expect(result.ok).toBe(true);
    expect(result.usage).toEqual({ toolCostUsd: 0.005, units: 3, unit: 'query' });
  });

  it('leaves usage off a call that reported nothing', async () => {
    const result = await dispatchOne(reporting([]));
    expect(result).not.toHaveProperty('usage');
  });

  it('keeps what a call spent before it failed', async () => {
    const result = await dispatchOne(reporting([{ usd: 0.5 }], { failure: new Error('quota') }));
    expect(result).toMatchObject({ ok: false, status: 'error', usage: { toolCostUsd: 0.5 } });
  });

  it('counts the cost of every attempt of a retried call', async () => {
    let attempts = 0;
    const tool = defineTool({
      name: 'search',
      description: 'd',
      inputSchema: OBJECT,
      safety: { readOnly: true, spend: true },
      retry: { maxAttempts: 3, initialDelayMs: 0 },
      handler: (_args, runtime) => {
        runtime.reportCost({ usd: 1 });
        attempts += 1;
        if (attempts < 3) throw Object.assign(new Error('unavailable'), { status: 503 });
        return 'found';
      },
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool]),
      sleep: async () => {},
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'search', arguments: {} });
    expect(result).toMatchObject({ ok: true, attempts: 3, usage: { toolCostUsd: 3 } });
  });

  it.each([
    [{ usd: -1 }, /usd must be a finite number ≥ 0/],
    [{ usd: Number.NaN }, /usd must be a finite number ≥ 0/],
    [{ units: Number.POSITIVE_INFINITY }, /units must be a finite number ≥ 0/],
    [{ units: 1, unit: '' }, /unit must be a non-empty string/],
  ])('throws InvalidArgumentError into the handler for %o', async (cost, message) => {
    const result = await dispatchOne(reporting([cost]));
    expect(result).toMatchObject({ ok: false, status: 'error' });
    expect(result.error).toMatch(message);
    expect(result).not.toHaveProperty('usage');
  });

  it('refuses a report in another unit than the call counted, keeping the earlier ones', async () => {
    const result = await dispatchOne(
      reporting([
        { units: 2, unit: 'page' },
        { units: 1, unit: 'query' },
      ]),
    );
    expect(result.error).toMatch(/counts units of "page", not "query"/);
    expect(result.usage).toEqual({ units: 2, unit: 'page' });
  });

  it('flags dollars from a tool that does not declare spend, and keeps them', async () => {
    const result = await dispatchOne(
      reporting([{ usd: 0.1 }], { safety: { sideEffectLevel: 'network' } }),
    );
    expect(result.usage).toEqual({ toolCostUsd: 0.1, undeclaredSpend: true });
  });

  it('does not flag units alone from a tool that does not declare spend', async () => {
    const result = await dispatchOne(
      reporting([{ units: 4, unit: 'page' }], { safety: { readOnly: true } }),
    );
    expect(result.usage).toEqual({ units: 4, unit: 'page' });
  });

  it('records the usage on the receipt and the tool span', async () => {
    const receipts: ToolCallReceipt[] = [];
    const spans: ToolCallSpan[] = [];
    const dispatcher = createDispatcher({
      registry: createToolRegistry([reporting([{ usd: 0.25, units: 1, unit: 'query' }])]),
      caller: composeToolCallers([
        withTelemetry((span) => void spans.push(span)),
        withAuditLog({ sink: (receipt) => void receipts.push(receipt) }),
      ]),
    });
    await dispatcher.dispatch({ id: 'c1', name: 'search', arguments: {} });
    expect(receipts[0]?.usage).toEqual({ tool_cost_usd: 0.25, units: 1, unit: 'query' });
    expect(spans[0]?.attributes).toMatchObject({
      'switchyard.tool.cost_usd': 0.25,
      'switchyard.tool.units': 1,
      'switchyard.tool.unit': 'query',
    });
    expect(spans[0]?.attributes).not.toHaveProperty('switchyard.tool.undeclared_spend');
  });

  it('leaves usage off the receipt and span of a call that reported nothing', async () => {
    const receipts: ToolCallReceipt[] = [];
    const spans: ToolCallSpan[] = [];
    const dispatcher = createDispatcher({
      registry: createToolRegistry([reporting([])]),
      caller: composeToolCallers([
        withTelemetry((span) => void spans.push(span)),
        withAuditLog({ sink: (receipt) => void receipts.push(receipt) }),
      ]),
    });
    await dispatcher.dispatch({ id: 'c1', name: 'search', arguments: {} });
    expect(receipts[0]).not.toHaveProperty('usage');
    expect(Object.keys(spans[0]?.attributes ?? {}).filter((key) => key.includes('cost'))).toEqual(
      [],
    );
  });
});
