import { describe, expect, it } from 'vitest';
import { createModelLimiter, retryAfterMs } from '../src/model-limiter.js';

/** A clock that only moves when the limiter sleeps; the sleeps are recorded. */
function manualTime() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

describe('createModelLimiter', () => {
  it('lets requestsPerMinute requests start in a rolling minute, then waits for the oldest to leave it', async () => {
    const time = manualTime();
    const limiter = createModelLimiter({ requestsPerMinute: 2, ...time });
    await limiter.acquire();
    await limiter.acquire();
    expect(time.slept).toEqual([]);
    await limiter.acquire();
    expect(time.slept).toEqual([60_000]);
  });

  it('waits while the minute holds tokensPerMinute tokens', async () => {
    const time = manualTime();
    const limiter = createModelLimiter({ tokensPerMinute: 1000, ...time });
    await limiter.acquire();
    limiter.addTokens(1200);
    await limiter.acquire();
    expect(time.slept).toEqual([60_000]);
  });

  it('holds every request back for a pause, and counts it', async () => {
    const time = manualTime();
    const limiter = createModelLimiter(time);
    limiter.pause(1500);
    await limiter.acquire();
    expect(time.slept).toEqual([1500]);
    expect(limiter.throttled).toBe(1);
  });
});

describe('retryAfterMs', () => {
  const withHeaders = (headers: Record<string, string>) => ({
    cause: { headers: new Headers(headers) },
  });

  it('reads retry-after-ms, retry-after in seconds and as an HTTP date', () => {
    expect(retryAfterMs(withHeaders({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(withHeaders({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs(withHeaders({ 'retry-after': 'Wed, 25 Nov 2026 10:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(retryAfterMs(withHeaders({}))).toBeUndefined();
    expect(retryAfterMs(new Error('no cause'))).toBeUndefined();
  });
});
