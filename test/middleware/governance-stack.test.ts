import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  governanceStack,
  toolsUseMiddleware,
} from '../../src/index.js';
import type { ToolCallSpan } from '../../src/middleware/index.js';
import { verifyReceipts } from '../../src/middleware/receipts/index.js';
import { tempDir } from '../support/temp-dir.js';
import { addTool } from '../support/tools.js';

describe('governanceStack', () => {
  it('composes the layers in the recommended order', () => {
    const stack = governanceStack({
      audit: () => {},
      telemetry: 'noop',
      scope: { stage: 'work' },
      reason: true,
      consent: () => true,
      redaction: () => undefined,
      idempotency: { key: (call) => call.callId },
      timeout: { maxMs: 1000 },
      rateLimit: { maxCalls: 10 },
      dryRun: { except: ['add'] },
    });
    expect(stack.layers).toEqual([
      'with_audit_log',
      'with_telemetry',
      'with_scoped_executor',
      'with_required_reason',
      'with_consent',
      'with_redaction',
      'with_idempotency',
      'with_timeout',
      'with_rate_limit',
      'with_dry_run',
    ]);
    expect(stack.schemaTransform).not.toBeNull();
  });

  it('runs a call end to end, recording a verified receipt and a span', async () => {
    const directory = tempDir('switchyard-stack-');
    const spans: ToolCallSpan[] = [];
    const stack = governanceStack({
      audit: { sink: 'local', directory },
      telemetry: (span) => void spans.push(span),
      reason: true,
      consent: { prompt: () => true, options: { when: () => true } },
      rateLimit: { maxCalls: 1 },
    });
    const registry = toolsUseMiddleware(createToolRegistry([addTool]), stack.schemaTransform!);
    const dispatcher = createDispatcher({ registry, caller: stack.caller });
    const ok = await dispatcher.dispatch(
      { id: 'a', name: 'add', arguments: '{"a":1,"b":2,"reason":"sum"}' },
      { sessionId: 'gov' },
    );
    const limited = await dispatcher.dispatch(
      { id: 'b', name: 'add', arguments: '{"a":1,"b":2,"reason":"again"}' },
      { sessionId: 'gov' },
    );
    await stack.close();
    expect(ok).toMatchObject({ ok: true, result: 3, audit: { summary: 'sum' } });
    expect(limited).toMatchObject({ ok: false, errorCategory: 'rate_limited' });
    expect(verifyReceipts(join(directory, 'gov.jsonl'))).toMatchObject({
      ok: true,
      verifiedLines: 2,
    });
    expect(spans.map((span) => span.status)).toEqual(['ok', 'error']);
  });

  it('flush resolves once every receipt so far is written, and leaves the logs open', async () => {
    const directory = tempDir('switchyard-stack-flush-');
    const stack = governanceStack({ audit: { sink: 'local', directory }, telemetry: 'noop' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([addTool]),
      caller: stack.caller,
    });
    const path = join(directory, 'flushed.jsonl');
    for (let index = 0; index < 50; index += 1) {
      await dispatcher.dispatch(
        { id: `c${index}`, name: 'add', arguments: '{"a":1,"b":2}' },
        { sessionId: 'flushed' },
      );
    }
    await stack.flush();
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 50 });
    await dispatcher.dispatch(
      { id: 'after', name: 'add', arguments: '{"a":1,"b":2}' },
      { sessionId: 'flushed' },
    );
    await stack.close();
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 51 });
  });

  it('flush resolves without an audit layer', async () => {
    await expect(governanceStack({ telemetry: 'noop' }).flush()).resolves.toBeUndefined();
  });
});
