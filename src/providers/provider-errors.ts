import { turnCancellationOf } from '../cancellation.js';
import { classifyError } from '../dispatch/classify-error.js';
import { type InternalErrorCategory, isTransient } from '../dispatch/error-taxonomy.js';
import { CancelledError, errorMessage, ModelError } from '../errors.js';

/** Socket failures under a dropped stream (undici reports them as `TypeError: terminated`). */
const SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

/** The SDKs' messages for a request sent without any credentials. */
const NO_CREDENTIALS = /could not resolve authentication method|missing credentials/i;

/**
 * Turns whatever a provider SDK threw into our types. In order:
 * - already a `ModelError` or `CancelledError`: unchanged;
 * - the request's signal aborted, or the SDK reports a user abort: `CancelledError`;
 * - the provider's own error word in the error's `code` or `type` field (`words`, e.g.
 *   `overloaded_error` → `overloaded`): error frames mid-stream carry no HTTP status, and their
 *   messages may hold numbers that are not one;
 * - the SDK's connection classes (the OpenAI and Anthropic SDKs share them):
 *   `APIConnectionTimeoutError` → `timeout`, `APIConnectionError` → `transient_network`; a
 *   socket dropped mid-stream (`TypeError: terminated`, `UND_ERR_SOCKET`, …) →
 *   `transient_network`; no credentials → `auth`;
 * - anything else by `classifyError` (HTTP status: 429 → `rate_limit`, 529 → `overloaded`, …).
 * `retryable` is true for transient categories.
 */
export function toModelError(
  provider: string,
  error: unknown,
  signal?: AbortSignal,
  words?: ReadonlyMap<string, InternalErrorCategory>,
): ModelError | CancelledError {
  if (ModelError.isInstance(error) || CancelledError.isInstance(error)) return error;
  if (signal?.aborted) return abortedTurn(provider, signal);
  const category = sdkCategory(error, words) ?? classifyError(error);
  if (category === 'cancelled' || hasClass(error, 'APIUserAbortError')) {
    return new CancelledError(`${provider}: ${errorMessage(error)}`, error);
  }
  return modelError(provider, errorMessage(error), category, error);
}

/** A `ModelError` of `category`, with the HTTP status of `cause` when it has one. */
export function modelError(
  provider: string,
  message: string,
  category: InternalErrorCategory,
  cause: unknown,
): ModelError {
  const status = ownField(cause, 'status');
  return new ModelError(`${provider}: ${message}`, {
    provider,
    category,
    ...(typeof status === 'number' ? { status } : {}),
    retryable: isTransient(category),
    cause,
  });
}

/** The `CancelledError` for a model turn whose signal aborted. */
export function abortedTurn(provider: string, signal: AbortSignal): CancelledError {
  return turnCancellationOf(signal.reason, `${provider}: the model turn was cancelled`);
}

function sdkCategory(
  error: unknown,
  words: ReadonlyMap<string, InternalErrorCategory> | undefined,
): InternalErrorCategory | undefined {
  for (const key of ['code', 'type']) {
    const word = ownField(error, key);
    const category = typeof word === 'string' ? words?.get(word) : undefined;
    if (category !== undefined) return category;
  }
  if (hasClass(error, 'APIConnectionTimeoutError')) return 'timeout';
  if (hasClass(error, 'APIConnectionError') || droppedConnection(error)) return 'transient_network';
  if (NO_CREDENTIALS.test(errorMessage(error))) return 'auth';
  return undefined;
}

function droppedConnection(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = ownField(current, 'code');
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    if (current.name === 'TypeError' && current.message === 'terminated') return true;
    current = current.cause;
  }
  return false;
}

/**
 * True when a class named `name` is on the error's prototype chain (or it carries that `name`):
 * errors from a client built with another copy of the SDK are read the same way.
 */
function hasClass(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { name?: unknown }).name === name) return true;
  for (
    let prototype: unknown = Object.getPrototypeOf(error);
    prototype !== null && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    if ((prototype as { constructor?: { name?: unknown } }).constructor?.name === name) return true;
  }
  return false;
}

function ownField(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
