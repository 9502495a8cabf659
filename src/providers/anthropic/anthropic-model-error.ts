import type { InternalErrorCategory } from '../../dispatch/error-taxonomy.js';
import { isTransient } from '../../dispatch/error-taxonomy.js';
import { type CancelledError, errorMessage, ModelError } from '../../errors.js';
import { toModelError } from '../provider-errors.js';

const PROVIDER = 'anthropic';

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

/** Socket failures under a dropped stream (undici reports them as `TypeError: terminated`). */
const SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

/**
 * `toModelError` for the Anthropic SDK, with the cases the generic classifier gets wrong:
 * an `event: error` frame has no status, so its `error.type` decides (the generic reading of its
 * message would take any three-digit number in it for a status); a stream whose connection
 * dropped (`TypeError: terminated`) and an `APIConnectionError` are `transient_network`; the
 * SDK finding no credentials at request time is `auth`. Everything else, aborts included, goes
 * through `toModelError`.
 *
 * @returns `CancelledError` when `signal` aborted, else a `ModelError` with `provider: 'anthropic'`.
 * @example
 * try { ... } catch (error) { throw toAnthropicModelError(error, signal); }
 */
export function toAnthropicModelError(
  error: unknown,
  signal?: AbortSignal,
): ModelError | CancelledError {
  const category = signal?.aborted ? undefined : anthropicCategory(error);
  if (category === undefined) return toModelError(PROVIDER, error, signal);
  const status = ownField(error, 'status');
  return new ModelError(`${PROVIDER}: ${errorMessage(error)}`, {
    provider: PROVIDER,
    category,
    ...(typeof status === 'number' ? { status } : {}),
    retryable: isTransient(category),
    cause: error,
  });
}

function anthropicCategory(error: unknown): InternalErrorCategory | undefined {
  const type = ownField(error, 'type');
  if (typeof type === 'string' && ERROR_TYPES.has(type)) return ERROR_TYPES.get(type);
  const name = error instanceof Error ? error.name : undefined;
  if (name === 'APIConnectionError' || droppedConnection(error)) return 'transient_network';
  if (/could not resolve authentication method/i.test(errorMessage(error))) return 'auth';
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

function ownField(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
