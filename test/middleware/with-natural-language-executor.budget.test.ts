import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { CancelledError } from '../../src/errors.js';
import {
  BinderFailureError,
  type BinderFn,
  type BinderRequest,
  type NaturalLanguageExecutorOptions,
  withNaturalLanguageExecutor,
} from '../../src/middleware/index.js';
import { deferred } from '../../src/testing/index.js';
import { recordingNext, weatherCall } from '../support/binder-envelope.js';
import { manualTimer } from '../support/manual-timer.js';

const PARIS = { city: 'Paris', unit: 'c' };

/** A binder that records its request and answers only when the test says so. */
function heldBinder() {
  const answer = deferred<{ data: object }>();
  const requests: BinderRequest[] = [];
  const binderFn: BinderFn = (request) => {
    requests.push(request);
    return answer.promise;
  };
  return { binderFn, answer, requests };
}

function binder(options: Partial<NaturalLanguageExecutorOptions>) {
  return withNaturalLanguageExecutor({
    provider: 'groq',
    model: 'llama-fast',
    binderFn: async () => ({ data: PARIS }),
    ...options,
  });
}

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false, value: undefined as T | undefined };
  promise.then(
    (value) => {
      state.settled = true;
      state.value = value;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe('withNaturalLanguageExecutor latency budget (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops waiting at the default budget of 500 ms even when the binder ignores its signal', async () => {
    const held = heldBinder();
    const next = recordingNext();
    const pending = track(
      binder({ binderFn: held.binderFn, now: () => Date.now() })(
        weatherCall({ _nl_intent: 'Paris' }),
        next,
      ),
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(pending.settled).toBe(false);
    expect(held.requests[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(pending.settled).toBe(true);
    expect(pending.value?.audit?.binder).toEqual({
      provider: 'groq',
      model: 'llama-fast',
      status: 'timeout',
      latencyMs: 500,
      attempts: 1,
      reason: 'binder hop exceeded timeoutMs=500 (elapsed=500ms)',
    });
    expect(next.mock.calls[0]![0].toolArgs).toEqual({});
  });

  it('aborts the binder signal at the budget with a TimeoutError', async () => {
    const held = heldBinder();
    const pending = binder({ binderFn: held.binderFn, timeoutMs: 80 })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    await vi.advanceTimersByTimeAsync(80);
    await pending;
    const signal = held.requests[0]!.signal;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('reports timeout, not transport_error, when a binder that honours its signal rejects at the budget', async () => {
    const binderFn: BinderFn = ({ signal }) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const pending = binder({ binderFn, timeoutMs: 120, now: () => Date.now() })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    await vi.advanceTimersByTimeAsync(120);
    expect((await pending).audit?.binder).toMatchObject({ status: 'timeout', latencyMs: 120 });
  });

  it('ignores an answer that arrives after the budget', async () => {
    const held = heldBinder();
    const next = recordingNext();
    const pending = binder({ binderFn: held.binderFn, timeoutMs: 100 })(
      weatherCall({ city: 'Paris', _nl_intent: 'celsius' }),
      next,
    );
    await vi.advanceTimersByTimeAsync(100);
    const result = await pending;
    held.answer.resolve({ data: PARIS });
    await vi.advanceTimersByTimeAsync(1000);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next.mock.calls[0]![0].toolArgs).toEqual({ city: 'Paris' });
    expect(result.audit?.binder).toMatchObject({ status: 'timeout' });
  });

  it('throws a timeout BinderFailureError at the budget with onFailure raise', async () => {
    const held = heldBinder();
    const pending = binder({ binderFn: held.binderFn, timeoutMs: 10, onFailure: 'raise' })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    ).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    const error = await pending;
    expect(BinderFailureError.isInstance(error)).toBe(true);
    expect((error as BinderFailureError).status).toBe('timeout');
  });

  it('clears the budget timer as soon as the binder answers', async () => {
    const result = await binder({ timeoutMs: 60_000 })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    expect(result.audit?.binder).toMatchObject({ status: 'ok' });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('withNaturalLanguageExecutor latency budget (injected timer)', () => {
  it('arms the injected timer with timeoutMs and times out when it fires', async () => {
    const manual = manualTimer();
    const held = heldBinder();
    const pending = binder({
      binderFn: held.binderFn,
      timer: manual.timer,
      timeoutMs: 250,
      now: () => 0,
    })(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(manual.armed.map((entry) => entry.ms)).toEqual([250]);
    manual.fire();
    const result = await pending;
    // The clock never moved: the budget ruled, not the measure.
    expect(result.audit?.binder).toMatchObject({ status: 'timeout', latencyMs: 0 });
    expect(held.requests[0]!.signal.aborted).toBe(true);
  });

  it('disarms the injected timer when the binder answers first', async () => {
    const manual = manualTimer();
    await binder({ timer: manual.timer })(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(manual.armed[0]!.disarmed).toBe(true);
  });

  it('ignores the timer firing after the binder answered', async () => {
    const manual = manualTimer();
    const next = recordingNext();
    const result = await binder({ timer: manual.timer })(
      weatherCall({ _nl_intent: 'Paris' }),
      next,
    );
    manual.fire();
    expect(result.audit?.binder).toMatchObject({ status: 'ok' });
    expect(next).toHaveBeenCalledTimes(1);
  });
});

describe('withNaturalLanguageExecutor cancellation', () => {
  const neverFires = () => () => {};

  it('aborts the hop and propagates a CancelledError when the turn is cancelled', async () => {
    const turn = new AbortController();
    const held = heldBinder();
    const next = recordingNext();
    const pending = binder({ binderFn: held.binderFn, timer: neverFires })(
      weatherCall({ _nl_intent: 'Paris' }, { signal: turn.signal }),
      next,
    ).catch((error: unknown) => error);
    const reason = new Error('user pressed stop');
    turn.abort(reason);
    const error = await pending;
    expect(CancelledError.isInstance(error)).toBe(true);
    expect((error as CancelledError).reason).toBe(reason);
    expect(held.requests[0]!.signal.aborted).toBe(true);
    expect(held.requests[0]!.signal.reason).toBe(reason);
    expect(next).not.toHaveBeenCalled();
  });

  it('never calls the binder for a call whose turn is already cancelled', async () => {
    const turn = new AbortController();
    turn.abort();
    const binderFn = vi.fn<BinderFn>();
    const outcome: unknown = await binder({ binderFn })(
      weatherCall({ _nl_intent: 'Paris' }, { signal: turn.signal }),
      recordingNext(),
    ).then(
      (result: ToolCallResult) => result,
      (error: unknown) => error,
    );
    expect(CancelledError.isInstance(outcome)).toBe(true);
    expect(binderFn).not.toHaveBeenCalled();
  });
});
