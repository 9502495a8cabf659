import type { CancelledError, ModelError } from 'switchyard';
import type { InternalErrorCategory } from 'switchyard/dispatch';
import { toModelError } from 'switchyard/providers';

/** The API's `error.type` words (SDK `APIError.type`), which say more than a status does. */
const ERROR_TYPES: ReadonlyMap<string, InternalErrorCategory> = new Map([
  ['overloaded_error', 'overloaded'],
  ['rate_limit_error', 'rate_limit'],
  ['api_error', 'server_error'],
  ['timeout_error', 'timeout'],
  ['authentication_error', 'auth'],
  ['permission_error', 'auth'],
  ['not_found_error', 'not_found'],
]);

/**
 * `toModelError` for the Anthropic SDK: an `event: error` frame has no HTTP status, so its
 * `error.type` decides (`overloaded_error` → `overloaded`, `api_error` → `server_error`, …);
 * dropped and refused connections, missing credentials and aborts as for every provider.
 *
 * @returns `CancelledError` when `signal` aborted, else a `ModelError` with `provider: 'anthropic'`.
 * @example
 * try { ... } catch (error) { throw toAnthropicModelError(error, signal); }
 */
export function toAnthropicModelError(
  error: unknown,
  signal?: AbortSignal,
): ModelError | CancelledError {
  return toModelError('anthropic', error, signal, ERROR_TYPES);
}
