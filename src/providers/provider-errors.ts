import { classifyError } from '../dispatch/classify-error.js';
import { isTransient } from '../dispatch/error-taxonomy.js';
import { CancelledError, errorMessage, ModelError } from '../errors.js';

/**
 * Turns whatever a provider SDK threw into our types: `CancelledError` when the request's signal
 * aborted (or the SDK reports a user abort), a classified `ModelError` otherwise (429 →
 * `rate_limit`, overload → `overloaded`, 401/403 → `auth`, SDK timeouts → `timeout`, lost
 * connections → `transient_network`). Already-typed errors pass through unchanged.
 */
export function toModelError(
  provider: string,
  error: unknown,
  signal?: AbortSignal,
): ModelError | CancelledError {
  if (ModelError.isInstance(error) || CancelledError.isInstance(error)) return error;
  if (signal?.aborted) return abortedTurn(provider, signal);
  const category = classifyError(error);
  if (category === 'cancelled') return new CancelledError(`${provider}: ${errorMessage(error)}`);
  const status = statusOf(error);
  return new ModelError(`${provider}: ${errorMessage(error)}`, {
    provider,
    category,
    ...(status === undefined ? {} : { status }),
    retryable: isTransient(category),
    cause: error,
  });
}

/** The `CancelledError` for a model turn whose signal aborted. */
export function abortedTurn(provider: string, signal: AbortSignal): CancelledError {
  const reason: unknown = signal.reason;
  if (CancelledError.isInstance(reason)) return reason;
  return new CancelledError(`${provider}: the model turn was cancelled`, reason);
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !Object.hasOwn(error, 'status'))
    return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
