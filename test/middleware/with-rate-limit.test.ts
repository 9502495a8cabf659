import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { InvalidOptionError } from '../../src/errors.js';
import { type RateLimitOptions, withRateLimit } from '../../src/middleware/with-rate-limit.js';
import { deferred } from '../../src/testing/deferred.js';
import { manualClock } from '../support/manual-clock.js';
import { fakeCall, okResult, recordingNext, unknownToolCall } from './fixtures.js';

function optionError(options: unknown): InvalidOptionError {
  try {
    withRateLimit(options as RateLimitOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

const layerOf = (result: ToolCallResult) => result.audit?.layers?.[0];

describe('withRateLimit options', () => {
  it.each([
    ['maxCalls', {}],
    ['maxCalls', { maxCalls: -1 }],
    ['maxCalls', { maxCalls: 1.5 }],
    ['perTool', { perTool: ['search'] }],
    ['perTool.search', { perTool: { search: -1 } }],
    ['window', { maxCalls: 1, window: 1000 }],
    ['window.ms', { maxCalls: 1, window: { ms: 0 } }],
    ['window.mode', { maxCalls: 1, window: { ms: 10, mode: 'rolling' } }],
    ['message', { maxCalls: 1, message: 5 }],
    ['now', { maxCalls: 1, now: 5 }],
    ['options', 'fast'],
  ])('rejects a bad %s at construction', (option, options) => {
    expect(optionError(options).option).toBe(option);
  });

  it('says what maxCalls must be', () => {
    expect(optionError({}).message).toBe('withRateLimit: maxCalls must be a non-negative integer');
  });
});

describe('withRateLimit lifetime cap', () => {
  it('lets maxCalls calls through, then blocks every later call for good', async () => {
    const next = recordingNext();
    const layer = withRateLimit({ maxCalls: 2 });
    const first = await layer(fakeCall(), next);
    const second = await layer(fakeCall(), next);
    const third = await layer(fakeCall({ callId: 'c3' }), next);
    expect(layerOf(first)).toEqual({ name: 'with_rate_limit', status: 'ok', count: 1, cap: 2 });
    expect(layerOf(second)).toMatchObject({ count: 2, cap: 2 });
    expect(next.calls).toHaveLength(2);
    expect(third).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'rate_limited',
      error: 'rate limit exceeded (cap: 2, count: 2)',
      toolCallId: 'c3',
    });
    expect(layerOf(third)).toEqual({
      name: 'with_rate_limit',
      status: 'blocked',
      scope: 'global',
      count: 2,
      cap: 2,
    });
    expect((await layer(fakeCall(), next)).errorCategory).toBe('rate_limited');
  });

  it('blocks everything with maxCalls 0 and leads with a custom message', async () => {
    const result = await withRateLimit({ maxCalls: 0, message: 'tool budget spent' })(
      fakeCall(),
      recordingNext(),
    );
    expect(result.error).toBe('tool budget spent (cap: 0, count: 0)');
  });

  it('is exact under concurrency: a slot is taken before the call goes on', async () => {
    const gate = deferred<void>();
    const next = recordingNext(async (call) => {
      await gate.promise;
      return okResult(call);
    });
    const layer = withRateLimit({ maxCalls: 3 });
    const pending = Array.from({ length: 10 }, (_, index) =>
      layer(fakeCall({ callId: `c${index}` }), next),
    );
    gate.resolve();
    const results = await Promise.all(pending);
    expect(next.calls).toHaveLength(3);
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.filter((result) => result.errorCategory === 'rate_limited')).toHaveLength(7);
    expect(results.slice(0, 3).map((result) => layerOf(result)?.count)).toEqual([1, 2, 3]);
  });

  it('does not count calls the executor will refuse anyway', async () => {
    const next = recordingNext();
    const layer = withRateLimit({ maxCalls: 1 });
    const refused = await layer(unknownToolCall(), next);
    expect(refused.audit).toBeUndefined();
    expect((await layer(fakeCall(), next)).ok).toBe(true);
  });
});

describe('withRateLimit per tool', () => {
  it('caps a tool on its own and spends nothing of the other cap when it blocks', async () => {
    const next = recordingNext();
    const layer = withRateLimit({ maxCalls: 3, perTool: { search: 1 } });
    const search = await layer(fakeCall({ toolName: 'search' }), next);
    expect(layerOf(search)).toEqual({
      name: 'with_rate_limit',
      status: 'ok',
      count: 1,
      cap: 3,
      toolCount: 1,
      toolCap: 1,
    });
    const blocked = await layer(fakeCall({ toolName: 'search' }), next);
    expect(blocked.error).toBe('rate limit exceeded for tool `search` (cap: 1, count: 1)');
    expect(layerOf(blocked)).toMatchObject({ status: 'blocked', scope: 'tool', count: 1, cap: 1 });
    const other = await layer(fakeCall({ toolName: 'read' }), next);
    expect(layerOf(other)).toEqual({ name: 'with_rate_limit', status: 'ok', count: 2, cap: 3 });
  });

  it('works with per-tool caps alone', async () => {
    const layer = withRateLimit({ perTool: { search: 0 } });
    expect((await layer(fakeCall({ toolName: 'search' }), recordingNext())).errorCategory).toBe(
      'rate_limited',
    );
    const free = await layer(fakeCall({ toolName: 'read' }), recordingNext());
    expect(layerOf(free)).toEqual({ name: 'with_rate_limit', status: 'ok' });
  });

  it('does not spend a tool slot when the overall cap blocks', async () => {
    const next = recordingNext();
    const clock = manualClock();
    const layer = withRateLimit({
      maxCalls: 1,
      perTool: { search: 1 },
      window: { ms: 100, mode: 'fixed' },
      now: clock.now,
    });
    await layer(fakeCall({ toolName: 'read' }), next);
    expect(layerOf(await layer(fakeCall({ toolName: 'search' }), next))?.scope).toBe('global');
    clock.advance(100);
    expect((await layer(fakeCall({ toolName: 'search' }), next)).ok).toBe(true);
  });
});

describe('withRateLimit windows', () => {
  it('refills a fixed window at its boundary and says when', async () => {
    const clock = manualClock(1_000);
    const next = recordingNext();
    const layer = withRateLimit({
      maxCalls: 1,
      window: { ms: 1000, mode: 'fixed' },
      now: clock.now,
    });
    expect((await layer(fakeCall(), next)).ok).toBe(true);
    clock.set(1_600);
    const blocked = await layer(fakeCall(), next);
    expect(blocked.error).toBe('rate limit exceeded (cap: 1, count: 1, retry after 400 ms)');
    expect(layerOf(blocked)).toMatchObject({ retryAfterMs: 400 });
    clock.set(2_000);
    expect((await layer(fakeCall(), next)).ok).toBe(true);
  });

  it('counts the calls of the last window.ms in a sliding window', async () => {
    const clock = manualClock();
    const next = recordingNext();
    const layer = withRateLimit({ maxCalls: 2, window: { ms: 1000 }, now: clock.now });
    await layer(fakeCall(), next); // t=0
    clock.set(600);
    await layer(fakeCall(), next); // t=600
    clock.set(900);
    expect(layerOf(await layer(fakeCall(), next))).toMatchObject({
      status: 'blocked',
      count: 2,
      retryAfterMs: 100,
    });
    clock.set(1000);
    expect(layerOf(await layer(fakeCall(), next))).toMatchObject({ status: 'ok', count: 2 });
    clock.set(1100);
    expect(layerOf(await layer(fakeCall(), next))).toMatchObject({ retryAfterMs: 500 });
    expect(next.calls).toHaveLength(3);
  });

  it('gives no retry hint when the cap is 0', async () => {
    const result = await withRateLimit({ maxCalls: 0, window: { ms: 10 } })(
      fakeCall(),
      recordingNext(),
    );
    expect(layerOf(result)?.retryAfterMs).toBeUndefined();
    expect(result.error).toBe('rate limit exceeded (cap: 0, count: 0)');
  });
});
