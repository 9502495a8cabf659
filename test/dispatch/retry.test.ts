import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, sleep } from '../../src/dispatch/backoff.js';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { ToolDefinitionError } from '../../src/errors.js';
import { deferred } from '../../src/testing/deferred.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import type { RetryPolicy } from '../../src/tools/tool-spec.js';

function unavailable(message = 'upstream unavailable'): Error {
  return Object.assign(new Error(message), { status: 503 });
}

/** A sleep that records the delays asked for and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  const fn = async (ms: number) => {
    delays.push(ms);
  };
  return { delays, fn };
}

function flaky(
  retry: RetryPolicy | undefined,
  failures: number,
  error: () => unknown = unavailable,
) {
  let remaining = failures;
  return recordingTool({ name: 'fetch_page', ...(retry ? { retry } : {}) }).respondsWith(() => {
    if (remaining > 0) {
      remaining -= 1;
      throw error();
    }
    return 'page';
  });
}

describe('retry policies', () => {
  it('retries a transient failure with growing delays until it succeeds', async () => {
    const tool = flaky({ maxAttempts: 4, initialDelayMs: 100, factor: 2, maxDelayMs: 10_000 }, 3);
    const clock = recordingSleep();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: clock.fn,
      random: () => 1,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(result).toMatchObject({ ok: true, status: 'ok', result: 'page', attempts: 4 });
    expect(tool.callCount).toBe(4);
    expect(clock.delays).toEqual([100, 200, 400]);
  });

  it('caps every delay at maxDelayMs', async () => {
    const tool = flaky({ maxAttempts: 6, initialDelayMs: 100, factor: 3, maxDelayMs: 500 }, 10);
    const clock = recordingSleep();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: clock.fn,
      random: () => 1,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(clock.delays).toEqual([100, 300, 500, 500, 500]);
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      attempts: 6,
      errorCategory: 'overloaded',
    });
    expect(result.error).toBe('upstream unavailable');
  });

  it('draws jittered delays from [delay/2, delay]', async () => {
    const tool = flaky({ maxAttempts: 3, initialDelayMs: 100, factor: 2 }, 2);
    const clock = recordingSleep();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: clock.fn,
      random: () => 0,
    });
    await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(clock.delays).toEqual([50, 100]);
  });

  it('never retries a non-transient error', async () => {
    const tool = flaky({ maxAttempts: 5 }, 5, () => new Error('invalid path'));
    const clock = recordingSleep();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: clock.fn,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(result).toMatchObject({ status: 'error', errorCategory: 'tool_error', attempts: 1 });
    expect(tool.callCount).toBe(1);
    expect(clock.delays).toEqual([]);
  });

  it.each([
    ['rate limit status', () => Object.assign(new Error('slow down'), { status: 429 })],
    ['server error in the message', () => new Error('HTTP 502 Bad Gateway')],
    ['transport phrase', () => new Error('socket hang up')],
    ['timeout phrase', () => new Error('deadline exceeded')],
  ])('retries a transient %s', async (_label, error) => {
    const tool = flaky({ maxAttempts: 2 }, 1, error);
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: recordingSleep().fn,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    expect(result).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('never retries a tool without a retry policy', async () => {
    const tool = flaky(undefined, 1);
    const clock = recordingSleep();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: clock.fn,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetch_page', arguments: {} });
    // The failure is transient, yet without a policy it is not retried.
    expect(result).toMatchObject({ status: 'error', errorCategory: 'overloaded', attempts: 1 });
    expect(tool.callCount).toBe(1);
    expect(clock.delays).toEqual([]);
  });

  it('is refused by defineTool on a tool with side effects', () => {
    const define = () =>
      defineTool({
        name: 'send_email',
        description: 'd',
        inputSchema: { type: 'object' },
        safety: { sideEffectLevel: 'network' },
        retry: { maxAttempts: 3 },
        handler: () => null,
      });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(expect.objectContaining({ rule: 'retry_not_idempotent' }));
  });

  it('retries a timed-out attempt of an idempotent tool', async () => {
    vi.useFakeTimers();
    try {
      let attempt = 0;
      const tool = recordingTool({
        name: 'lookup',
        timeoutMs: 20,
        retry: { maxAttempts: 2 },
      }).respondsWith(() => {
        attempt += 1;
        return attempt === 1 ? new Promise(() => {}) : 'found';
      });
      const dispatcher = createDispatcher({
        registry: createToolRegistry([tool.tool]),
        sleep: recordingSleep().fn,
      });
      const pending = dispatcher.dispatch({ id: 'c1', name: 'lookup', arguments: {} });
      await tool.nextCall();
      await vi.advanceTimersByTimeAsync(20);
      expect(await pending).toMatchObject({ status: 'ok', result: 'found', attempts: 2 });
      // Each attempt has its own signal: the first stays aborted, the retry's never was.
      expect(tool.calls[0]?.signal.aborted).toBe(true);
      expect(tool.calls[1]?.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('yields cancelled when the turn is cancelled during the backoff sleep', async () => {
    const tool = flaky({ maxAttempts: 3 }, 3);
    const asleep = deferred<AbortSignal | undefined>();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      sleep: (_ms, signal) =>
        new Promise<void>((_resolve, reject) => {
          asleep.resolve(signal);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'fetch_page', arguments: {} },
      { signal: controller.signal },
    );
    const signal = await asleep.promise;
    expect(signal).toBe(controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 'c1',
    });
    expect(tool.callCount).toBe(1);
  });
});

describe('backoff helpers', () => {
  const policy = {
    maxAttempts: 5,
    initialDelayMs: 100,
    maxDelayMs: 1000,
    factor: 2,
    jitter: false,
  };

  it('grows exponentially and caps at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(policy, retry, () => 0.5))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
  });

  it('jitters within [delay/2, delay]', () => {
    const jittered = { ...policy, jitter: true };
    expect(backoffDelay(jittered, 2, () => 0)).toBe(100);
    expect(backoffDelay(jittered, 2, () => 1)).toBe(200);
  });

  describe('sleep', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('resolves after the delay', async () => {
      vi.useFakeTimers();
      let done = false;
      const pending = sleep(100, undefined).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(done).toBe(true);
    });

    it('rejects with the abort reason at once when the signal aborts', async () => {
      vi.useFakeTimers();
      const controller = new AbortController();
      const pending = sleep(10_000, controller.signal);
      const reason = new Error('stop');
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('rejects immediately on an already aborted signal', async () => {
      const reason = new Error('already');
      await expect(sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    });
  });
});
