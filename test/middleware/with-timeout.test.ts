import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCaller } from '../../src/dispatch/tool-caller.js';
import { InvalidOptionError, ToolTimeoutError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { type TimeoutOptions, withTimeout } from '../../src/middleware/with-timeout.js';
import { deferred } from '../../src/testing/deferred.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import type { ToolRuntime } from '../../src/tools/tool-spec.js';
import { manualClock } from '../support/manual-clock.js';
import { fakeCall, okResult, recordingNext } from './fixtures.js';

function optionError(options: unknown): InvalidOptionError {
  try {
    withTimeout(options as TimeoutOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

/** A `next` that takes `ms` on the manual clock. */
function taking(clock: ReturnType<typeof manualClock>, ms: number) {
  return recordingNext((call) => {
    clock.advance(ms);
    return okResult(call, 'output');
  });
}

describe('withTimeout options', () => {
  it.each([
    ['maxMs', {}],
    ['maxMs', { maxMs: -1 }],
    ['maxMs', { maxMs: Number.POSITIVE_INFINITY }],
    ['perTool.slow', { maxMs: 10, perTool: { slow: -5 } }],
    ['message', { maxMs: 10, message: 1 }],
    ['hard', { maxMs: 10, hard: 'yes' }],
    ['now', { maxMs: 10, now: 'clock' }],
  ])('rejects a bad %s at construction', (option, options) => {
    expect(optionError(options).option).toBe(option);
  });
});

describe('withTimeout (observing)', () => {
  it('records the elapsed time of a call inside its budget', async () => {
    const clock = manualClock();
    const result = await withTimeout({ maxMs: 10, now: clock.now })(fakeCall(), taking(clock, 9));
    expect(result.ok).toBe(true);
    expect(result.audit?.layers).toEqual([
      { name: 'with_timeout', status: 'ok', elapsedMs: 9, limitMs: 10 },
    ]);
  });

  it('turns a call that reached its budget into a timeout error, keeping its result', async () => {
    const clock = manualClock();
    const next = taking(clock, 10);
    const result = await withTimeout({ maxMs: 10, now: clock.now })(fakeCall(), next);
    expect(next.calls).toHaveLength(1);
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'timeout',
      error: 'tool call exceeded time budget (elapsed: 10ms, limit: 10ms)',
      result: 'output',
      observation:
        '[timeout: echo]\ntool call exceeded time budget (elapsed: 10ms, limit: 10ms)\noutput',
    });
    expect(result.audit?.layers).toEqual([
      { name: 'with_timeout', status: 'timeout', elapsedMs: 10, limitMs: 10 },
    ]);
  });

  it('uses the per-tool budget and a custom message', async () => {
    const clock = manualClock();
    const layer = withTimeout({
      maxMs: 100,
      perTool: { slow: 5 },
      message: 'too slow',
      now: clock.now,
    });
    const slow = await layer(fakeCall({ toolName: 'slow' }), taking(clock, 6));
    expect(slow.error).toBe('too slow (elapsed: 6ms, limit: 5ms)');
    const other = await layer(fakeCall({ toolName: 'fast' }), taking(clock, 6));
    expect(other.ok).toBe(true);
  });

  it('breaches every call with maxMs 0', async () => {
    const clock = manualClock();
    const result = await withTimeout({ maxMs: 0, now: clock.now })(fakeCall(), taking(clock, 0));
    expect(result.errorCategory).toBe('timeout');
  });

  it("does not cancel the call: the signal it passes on is the caller's", async () => {
    const next = recordingNext();
    const call = fakeCall({ signal: new AbortController().signal });
    await withTimeout({ maxMs: 1000 })(call, next);
    expect(next.calls[0]).toBe(call);
  });
});

describe('withTimeout (hard)', () => {
  const seenReasons: unknown[] = [];
  const registry = createToolRegistry([
    {
      name: 'hang',
      description: 'waits for its signal',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: (_args: unknown, runtime: ToolRuntime) =>
        new Promise((_resolve, reject) => {
          runtime.signal.addEventListener('abort', () => {
            seenReasons.push(runtime.signal.reason);
            reject(runtime.signal.reason);
          });
        }),
    },
    {
      name: 'quick',
      description: 'returns at once',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: () => 'fast',
    },
  ]);

  it('aborts the call at the limit: the executor stops it with a timeout result', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withTimeout({ maxMs: 15, hard: true }),
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'hang', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'timeout',
      errorCategory: 'timeout',
      toolCallId: 'c1',
    });
    expect(result.error).toMatch(
      /^tool call exceeded time budget \(elapsed: \d+ms, limit: 15ms\)$/,
    );
    expect(result.audit?.layers?.[0]).toMatchObject({
      name: 'with_timeout',
      status: 'timeout',
      limitMs: 15,
    });
    expect(ToolTimeoutError.isInstance(seenReasons.at(-1))).toBe(true);
  });

  it('leaves a call that finishes in time alone', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withTimeout({ maxMs: 10_000, hard: true }),
    });
    const result = await dispatcher.dispatch({ name: 'quick', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, result: 'fast' });
    expect(result.audit?.layers?.[0]?.status).toBe('ok');
  });

  it('answers with a timeout when a layer below lets the abort reason escape', async () => {
    const rethrow: ToolCaller = (call) =>
      new Promise((_resolve, reject) => {
        call.signal?.addEventListener('abort', () => reject(call.signal?.reason));
      });
    const caller = composeToolCallers([withTimeout({ maxMs: 5, hard: true }), rethrow]);
    const result = await caller(fakeCall(), recordingNext());
    expect(result).toMatchObject({ ok: false, status: 'timeout', errorCategory: 'timeout' });
  });

  it('passes a cancellation of the turn through as a cancellation, not a timeout', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withTimeout({ maxMs: 10_000, hard: true }),
    });
    const controller = new AbortController();
    const started = deferred<void>();
    const sub = dispatcher.events$.subscribe((event) => {
      if (event.type === 'tool_call_update' && event.status === 'in_progress') started.resolve();
    });
    const pending = dispatcher.dispatch(
      { name: 'hang', arguments: '{}' },
      { signal: controller.signal },
    );
    await started.promise;
    controller.abort(new Error('user stopped'));
    const result = await pending;
    sub.unsubscribe();
    expect(result.status).toBe('cancelled');
  });
});
