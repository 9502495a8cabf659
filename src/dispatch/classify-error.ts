import { CancelledError, errorMessage, ToolTimeoutError } from '../errors.js';
import type { InternalErrorCategory } from './error-taxonomy.js';

const CATEGORY_WORDS = new Set<string>([
  'timeout',
  'rate_limit',
  'overloaded',
  'server_error',
  'transient_network',
  'resource_busy',
  'schema_validation',
  'schema_stream_aborted',
  'tool_error',
  'tool_rejected',
  'cancelled',
  'auth',
  'egress_blocked',
  'channel_closed',
  'not_found',
  'circuit_open',
  'budget_exceeded',
  'internal',
  'environment',
  'generic',
]);

function fromStatusCode(status: number): InternalErrorCategory | undefined {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408 || status === 504 || status === 522 || status === 524) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 500 || status === 502) return 'server_error';
  return undefined;
}

const PROVIDER_STRINGS: ReadonlyArray<readonly [RegExp, InternalErrorCategory]> = [
  [/deadline exceeded|timed? ?out/i, 'timeout'],
  [/overloaded_error|overloaded/i, 'overloaded'],
  [/insufficient_quota|billing_hard_limit_reached|rate[ _]limit/i, 'rate_limit'],
  [/invalid_api_key|authentication_error|unauthori[sz]ed/i, 'auth'],
  [/not_found_error|model_not_found/i, 'not_found'],
  [/circuit[ _]open/i, 'circuit_open'],
  [/\bapi_error\b/i, 'server_error'],
];

const TRANSPORT_PHRASES =
  /connection (reset|refused|closed)|broken pipe|dns error|stream error|unexpected eof|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/i;

function ownField(error: unknown, key: string): unknown {
  if (typeof error !== 'object' || error === null || !Object.hasOwn(error, key)) return undefined;
  return (error as Record<string, unknown>)[key];
}

/**
 * Classifies anything thrown into an internal category. In order: our own error classes, an abort;
 * an explicit `category` field; an HTTP `status`/`statusCode` field; the first HTTP status code in
 * the message; provider error strings; transport phrases; else `generic`.
 */
export function classifyError(error: unknown): InternalErrorCategory {
  if (ToolTimeoutError.isInstance(error)) return 'timeout';
  if (CancelledError.isInstance(error)) return 'cancelled';
  const name = ownField(error, 'name') ?? (error instanceof Error ? error.name : undefined);
  if (name === 'AbortError') return 'cancelled';
  if (name === 'TimeoutError') return 'timeout';
  const category = ownField(error, 'category');
  if (typeof category === 'string' && CATEGORY_WORDS.has(category)) {
    return category as InternalErrorCategory;
  }
  for (const key of ['status', 'statusCode']) {
    const status = ownField(error, key);
    if (typeof status === 'number') {
      const byStatus = fromStatusCode(status);
      if (byStatus !== undefined) return byStatus;
    }
  }
  const code = ownField(error, 'code');
  const message = `${errorMessage(error)} ${typeof code === 'string' ? code : ''}`;
  for (const match of message.matchAll(/\b([1-5]\d\d)\b/g)) {
    const byStatus = fromStatusCode(Number(match[1]));
    if (byStatus !== undefined) return byStatus;
  }
  for (const [pattern, found] of PROVIDER_STRINGS) if (pattern.test(message)) return found;
  if (TRANSPORT_PHRASES.test(message)) return 'transient_network';
  return 'generic';
}
