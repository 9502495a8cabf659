import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import type { Next, ToolCaller } from '../../src/dispatch/tool-caller.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import type { ToolCallReceipt } from '../../src/middleware/receipts/index.js';
import { withAuditLog } from '../../src/middleware/with-audit-log.js';
import { withDryRun } from '../../src/middleware/with-dry-run.js';
import { withRateLimit } from '../../src/middleware/with-rate-limit.js';
import { withTelemetry } from '../../src/middleware/with-telemetry.js';
import { withTimeout } from '../../src/middleware/with-timeout.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { addTool } from '../support/tools.js';

const layerNames = (result: ToolCallResult) => result.audit?.layers?.map((layer) => layer.name);

function dispatcherOver(layers: ToolCaller[]) {
  const dispatcher = createDispatcher({
    registry: createToolRegistry([addTool]),
    caller: composeToolCallers(layers),
  });
  let id = 0;
  return () => dispatcher.dispatch({ id: `c${id++}`, name: 'add', arguments: '{"a":1,"b":2}' });
}

/** A user layer that keeps every result it gets from `next`, with a snapshot of it. */
function keeping(kept: { result: ToolCallResult; snapshot: string }[]): ToolCaller {
  return async function keeping(call: ToolCallEnvelope, next: Next) {
    const result = await next(call);
    kept.push({ result, snapshot: JSON.stringify(result) });
    return result;
  };
}

describe('bundled layers adding their entries', () => {
  it('add to the audit of a result the layer below just built, and record every entry in order', async () => {
    const run = dispatcherOver([
      withTelemetry('noop'),
      withTimeout({ maxMs: 10_000 }),
      withRateLimit({ maxCalls: 10 }),
      withDryRun({ except: ['add'] }),
    ]);
    const first = await run();
    const second = await run();
    expect(layerNames(first)).toEqual(['with_rate_limit', 'with_timeout', 'with_telemetry']);
    expect(second.audit?.layers?.[0]).toMatchObject({ count: 2 });
    // Each call has its own audit: nothing of the second call reached the first.
    expect(first.audit).not.toBe(second.audit);
    expect(first.audit?.layers?.[0]).toMatchObject({ count: 1 });
  });

  it('never change a result a user layer between them has seen', async () => {
    const kept: { result: ToolCallResult; snapshot: string }[] = [];
    // The dry-run layer above the user layer hands its result on as it is.
    const run = dispatcherOver([
      withTimeout({ maxMs: 10_000 }),
      withDryRun({ except: ['add'] }),
      keeping(kept),
      withRateLimit({ maxCalls: 10 }),
      withDryRun({ except: ['add'] }),
    ]);
    const results = [await run(), await run()];
    for (const [index, { result, snapshot }] of kept.entries()) {
      expect(JSON.stringify(result)).toBe(snapshot);
      expect(layerNames(result)).toEqual(['with_rate_limit']);
      expect(layerNames(results[index]!)).toEqual(['with_rate_limit', 'with_timeout']);
    }
  });

  it('keep the audits of calls in flight together apart, and results user layers saw unchanged', async () => {
    const kept: { result: ToolCallResult; snapshot: string }[] = [];
    const run = dispatcherOver([
      withTelemetry('noop'),
      withTimeout({ maxMs: 10_000 }),
      withDryRun({ except: ['add'] }),
      keeping(kept),
      withRateLimit({ maxCalls: 100 }),
      withDryRun({ except: ['add'] }),
    ]);
    const results = await Promise.all(Array.from({ length: 20 }, () => run()));
    for (const { result, snapshot } of kept) expect(JSON.stringify(result)).toBe(snapshot);
    for (const result of results) {
      expect(layerNames(result)).toEqual(['with_rate_limit', 'with_timeout', 'with_telemetry']);
    }
    const counts = results.map((result) => result.audit?.layers?.[0]?.count);
    expect(new Set(counts).size).toBe(20);
  });

  it('never change a result handed back to them from outside a composed stack', async () => {
    const timeout = withTimeout({ maxMs: 10_000 });
    const rateLimit = withRateLimit({ maxCalls: 10 });
    let call: ToolCallEnvelope | undefined;
    const run = dispatcherOver([
      async function capture(arrived: ToolCallEnvelope, next: Next) {
        call = arrived;
        return next(arrived);
      },
    ]);
    const executed = await run();
    const once = await rateLimit(call!, async () => executed);
    const snapshot = JSON.stringify(once);
    const twice = await timeout(call!, async () => once);
    expect(JSON.stringify(once)).toBe(snapshot);
    expect(layerNames(twice)).toEqual(['with_rate_limit', 'with_timeout']);
  });

  it('leave the receipt an audit layer recorded as it was when layers outside it add entries', async () => {
    const receipts: ToolCallReceipt[] = [];
    const run = dispatcherOver([
      withTimeout({ maxMs: 10_000 }),
      withTelemetry('noop'),
      withAuditLog((receipt) => void receipts.push(receipt)),
      withRateLimit({ maxCalls: 10 }),
      withDryRun({ except: ['add'] }),
    ]);
    const result = await run();
    expect(layerNames(result)).toEqual(['with_rate_limit', 'with_telemetry', 'with_timeout']);
    expect(receipts[0]!.audit.layers?.map((layer) => layer.name)).toEqual(['with_rate_limit']);
  });
});
