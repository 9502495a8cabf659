import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import type { Next, ToolCaller } from '../../src/dispatch/tool-caller.js';
import { NextCalledTwiceError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { withAuditLog } from '../../src/middleware/with-audit-log.js';
import { withRedaction } from '../../src/middleware/with-redaction.js';
import { withTelemetry } from '../../src/middleware/with-telemetry.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { fakeCall } from './fixtures.js';

function setup(caller: ToolCaller) {
  const echo = recordingTool({ name: 'echo' });
  const dispatcher = createDispatcher({ registry: createToolRegistry([echo.tool]), caller });
  const dispatch = (id = 'c1') => dispatcher.dispatch({ id, name: 'echo', arguments: { id } });
  return { echo, dispatch };
}

/** Unhandled rejections seen while a test runs (there must be none). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});
const macrotask = () => new Promise((resolve) => setImmediate(resolve));

describe('next() is single-use', () => {
  it('never runs the tool twice when a layer calls next() twice, and blames that layer', async () => {
    const twice: ToolCaller = async function call_twice(call, next) {
      await next(call);
      return next(call);
    };
    const { echo, dispatch } = setup(composeToolCallers([twice]));
    const results = await Promise.all([dispatch('a'), dispatch('b'), dispatch('c')]);
    expect(echo.callCount).toBe(3);
    for (const result of results) {
      expect(result).toMatchObject({
        ok: false,
        status: 'tool_middleware_exception',
        errorCategory: 'tool_middleware_exception',
      });
      expect(result.error).toMatch(/^call_twice called next\(\) more than once/);
      expect(result.audit?.layers?.[0]?.name).toBe('call_twice');
    }
  });

  it('rejects the second next() with a typed error, and a dropped one is no unhandled rejection', async () => {
    const seen: unknown[] = [];
    const sloppy: ToolCaller = async function sloppy(call, next) {
      const result = await next(call);
      next(call).catch((error: unknown) => seen.push(error));
      void next(call);
      return result;
    };
    const { echo, dispatch } = setup(composeToolCallers([sloppy]));
    const result = await dispatch();
    await macrotask();
    expect(result.ok).toBe(true);
    expect(echo.callCount).toBe(1);
    expect(NextCalledTwiceError.isInstance(seen[0])).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it('refuses a second run from a hand-built caller that reuses the bottom', async () => {
    const { echo, dispatch } = setup(async (call, next) => {
      await next({ ...call });
      return next(call);
    });
    const result = await dispatch();
    expect(echo.callCount).toBe(1);
    expect(result.status).toBe('exception');
    expect(result.error).toMatch(/called next\(\) more than once/);
  });
});

describe('a layer that returns something that is not a result', () => {
  it('yields one complete exception result naming that layer, which the audit layer records', async () => {
    const receipts: { status: string; error: string | null }[] = [];
    const audit = withAuditLog({ sink: (receipt) => void receipts.push(receipt as never) });
    const forgetful = async function forgetful(call: ToolCallEnvelope, next: Next) {
      await next(call);
    } as unknown as ToolCaller;
    const { echo, dispatch } = setup(composeToolCallers([audit, forgetful]));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => dispatch(`c${index}`)),
    );
    expect(echo.callCount).toBe(20);
    await audit.close();
    expect(receipts).toHaveLength(20);
    for (const result of results) {
      expect(result).toMatchObject({
        ok: false,
        status: 'exception',
        errorCategory: 'tool_middleware_exception',
        renderedResult: expect.any(String),
        observation: expect.stringContaining('forgetful broke the middleware contract'),
      });
      expect(result.audit?.layers?.map((layer) => layer.name)).toContain('forgetful');
      expect(JSON.stringify(result.audit)).not.toMatch(/with_audit_log[^}]*exception/);
    }
  });
});

describe('withTelemetry sink failures', () => {
  it('never breaks the call nor leaves an unhandled rejection when onError throws or rejects', async () => {
    let reports = 0;
    const telemetry = withTelemetry({
      sinks: [
        () => {
          throw new Error('sync sink');
        },
        async () => Promise.reject(new Error('async sink')),
      ],
      onError: (error) => {
        reports += 1;
        if (reports % 2 === 0) return Promise.reject(error);
        throw error;
      },
    });
    const single = withTelemetry({
      sink: async () => Promise.reject(new Error('lonely sink')),
      onError: (error) => {
        throw error;
      },
    });
    const { dispatch } = setup(composeToolCallers([telemetry, single]));
    const results = await Promise.all([dispatch('a'), dispatch('b')]);
    for (let round = 0; round < 5; round += 1) await macrotask();
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok']);
    expect(reports).toBe(4);
    expect(unhandled).toEqual([]);
  });
});

describe('withRedaction and hand-built results', () => {
  const shortCut: Next = async (call: ToolCallEnvelope) =>
    ({ ok: false, status: 'blocked_here', toolName: call.toolName }) as ToolCallResult;

  it('tolerates an inner result without error or texts', async () => {
    const layer = withRedaction(({ phase }) => (phase === 'out' ? { error: 'hidden' } : undefined));
    const result = await layer(fakeCall(), shortCut);
    expect(result).toMatchObject({ ok: false, status: 'blocked_here' });
  });

  it('sees a completed result when the short-circuit comes from a composed layer', async () => {
    const errors: (string | null)[] = [];
    const redaction = withRedaction(({ phase, error }) => {
      if (phase === 'out') errors.push(error);
      return undefined;
    });
    const blocker: ToolCaller = async function blocker(call) {
      return { ok: false, status: 'blocked_here', toolName: call.toolName } as ToolCallResult;
    };
    const { dispatch } = setup(composeToolCallers([redaction, blocker]));
    const result = await dispatch();
    expect(errors).toEqual(['blocked_here']);
    expect(result).toMatchObject({
      ok: false,
      status: 'blocked_here',
      error: 'blocked_here',
      errorCategory: 'blocked_here',
      toolCallId: 'c1',
      observation: 'blocked_here',
    });
  });
});
