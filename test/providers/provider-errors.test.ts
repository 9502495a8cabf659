import { describe, expect, it } from 'vitest';
import { CancelledError, ModelError } from '../../src/index.js';
import { toModelError } from '../../src/providers/index.js';

class APIConnectionError extends Error {}
class APIConnectionTimeoutError extends APIConnectionError {}
class APIUserAbortError extends Error {}

describe('toModelError', () => {
  it('passes typed errors through unchanged', () => {
    const typed = new ModelError('x', { provider: 'p', category: 'auth', retryable: false });
    expect(toModelError('p', typed)).toBe(typed);
  });

  it('answers CancelledError with the reason when the signal aborted', () => {
    const reason = new CancelledError('stop');
    expect(toModelError('p', new Error('whatever'), AbortSignal.abort(reason))).toBe(reason);
  });

  it('reads a user abort of the SDK as a cancellation', () => {
    expect(CancelledError.isInstance(toModelError('p', new APIUserAbortError('aborted')))).toBe(
      true,
    );
  });

  it.each([
    ['a connection timeout', new APIConnectionTimeoutError('Request timed out.'), 'timeout', true],
    [
      'a refused connection',
      new APIConnectionError('Connection error.'),
      'transient_network',
      true,
    ],
    ['a socket dropped mid-stream', new TypeError('terminated'), 'transient_network', true],
    [
      'a dropped socket under a cause',
      new Error('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
      'transient_network',
      true,
    ],
    ['no credentials', new Error('Could not resolve authentication method.'), 'auth', false],
    [
      'an HTTP 429',
      Object.assign(new Error('429 Too Many Requests'), { status: 429 }),
      'rate_limit',
      true,
    ],
    ['anything else', new Error('boom'), 'generic', false],
  ])('classifies %s', (_label, error, category, retryable) => {
    expect(toModelError('p', error)).toMatchObject({ provider: 'p', category, retryable });
  });

  it("lets the provider's error word win over numbers in the message", () => {
    const frame = Object.assign(new Error('api_error: upstream 429 from shard'), {
      type: 'api_error',
    });
    const words = new Map([['api_error', 'server_error' as const]]);
    expect(toModelError('p', frame, undefined, words)).toMatchObject({ category: 'server_error' });
    expect(toModelError('p', frame)).toMatchObject({ category: 'rate_limit' });
  });

  it('keeps the HTTP status', () => {
    expect(toModelError('p', Object.assign(new Error('x'), { status: 529 }))).toMatchObject({
      category: 'overloaded',
      status: 529,
    });
  });
});
