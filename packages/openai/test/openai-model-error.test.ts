import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from 'openai';
import { CancelledError, ModelError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { openAIModelError, toOpenAIModelError } from '../src/index.js';

describe('toOpenAIModelError', () => {
  it.each([
    ['a connection timeout', new APIConnectionTimeoutError(), 'timeout'],
    ['a refused connection', new APIConnectionError({ message: undefined }), 'transient_network'],
    ['a socket closed mid-stream', new TypeError('terminated'), 'transient_network'],
    [
      'a server_error frame',
      new APIError(undefined, { type: 'server_error', message: 'x' }, undefined, undefined),
      'server_error',
    ],
    [
      'an overloaded frame',
      new APIError(undefined, { type: 'overloaded_error', message: 'x' }, undefined, undefined),
      'overloaded',
    ],
  ] as const)('classifies %s as %s', (_, error, category) => {
    const mapped = toOpenAIModelError(error);

    expect(mapped).toBeInstanceOf(ModelError);
    expect(mapped).toMatchObject({ provider: 'openai', category, retryable: true, cause: error });
  });

  it('leaves errors with a status to the shared classifier', () => {
    const error = new RateLimitError(429, { message: 'slow down' }, undefined, new Headers());

    expect(toOpenAIModelError(error)).toMatchObject({ category: 'rate_limit', status: 429 });
  });

  it('recognises SDK classes by name, for clients built with another copy of the SDK', () => {
    class APIConnectionError extends Error {}

    expect(toOpenAIModelError(new APIConnectionError('Connection error.'))).toMatchObject({
      category: 'transient_network',
    });
  });

  it('turns a user abort into a CancelledError', () => {
    const mapped = toOpenAIModelError(new APIUserAbortError());

    expect(mapped).toBeInstanceOf(CancelledError);
    expect(mapped).not.toBeInstanceOf(ModelError);
  });

  it('returns the abort reason when the signal aborted, whatever was thrown', () => {
    const controller = new AbortController();
    const reason = new CancelledError('stop');
    controller.abort(reason);

    expect(toOpenAIModelError(new TypeError('terminated'), controller.signal)).toBe(reason);
  });

  it('passes ModelError and CancelledError through unchanged', () => {
    const error = new ModelError('x', { provider: 'openai', category: 'auth', retryable: false });

    expect(toOpenAIModelError(error)).toBe(error);
  });

  it('keeps its former name as a deprecated alias of the same function', () => {
    expect(openAIModelError).toBe(toOpenAIModelError);
  });
});
