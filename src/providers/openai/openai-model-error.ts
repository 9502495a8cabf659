import { classifyError } from '../../dispatch/classify-error.js';
import { type InternalErrorCategory, isTransient } from '../../dispatch/error-taxonomy.js';
import { CancelledError, errorMessage, ModelError } from '../../errors.js';
import { abortedTurn, toModelError } from '../provider-errors.js';

/** Stamped on every error and turn of the OpenAI adapters. */
export const OPENAI_PROVIDER = 'openai';

/**
 * Error words OpenAI puts in an error body's `type` or `code`, in a `response.failed` response's
 * `error.code` or in a Responses `error` event. They arrive without an HTTP status (the stream
 * had already started with 200), and their messages rarely name the cause ("The server had an
 * error while processing your request"), so the shared classifier would call them `generic`.
 */
const ERROR_WORDS = new Map<string, InternalErrorCategory>([
  ['server_error', 'server_error'],
  ['internal_error', 'server_error'],
  ['overloaded', 'overloaded'],
  ['overloaded_error', 'overloaded'],
  ['server_overloaded', 'overloaded'],
  ['rate_limit_exceeded', 'rate_limit'],
  ['vector_store_timeout', 'timeout'],
]);

/**
 * Turns what the OpenAI SDK threw (or a failure the stream reported) into `ModelError` or
 * `CancelledError`, like `toModelError`, with the SDK's own classes read first:
 * - `APIConnectionTimeoutError` → `timeout`; `APIConnectionError` (refused, reset before the
 *   response) → `transient_network` (its message, "Connection error.", names neither);
 * - a socket that closed mid-stream (undici's `TypeError: terminated`) → `transient_network`;
 * - an `APIError` without a status (an error frame mid-stream) → the category of its `code` or
 *   `type` word (`server_error`, `rate_limit_exceeded`, `overloaded_error`, …);
 * - `APIUserAbortError` → `CancelledError`.
 * Classes are recognised by name along the prototype chain, so errors from a client built with
 * another copy of the SDK are read the same way. Everything else goes to `toModelError`.
 *
 * @returns `CancelledError` when `signal` aborted (its reason, if that is one), else the mapping.
 * @example
 * try {
 *   await client.chat.completions.create(params, { signal });
 * } catch (error) {
 *   throw openAIModelError(error, signal); // ModelError { category: 'rate_limit', status: 429, retryable: true }
 * }
 */
export function openAIModelError(
  error: unknown,
  signal?: AbortSignal,
): ModelError | CancelledError {
  if (ModelError.isInstance(error) || CancelledError.isInstance(error)) return error;
  if (signal?.aborted) return abortedTurn(OPENAI_PROVIDER, signal);
  if (hasClass(error, 'APIUserAbortError')) {
    return new CancelledError(`${OPENAI_PROVIDER}: ${errorMessage(error)}`, error);
  }
  const category = sdkCategory(error);
  if (category === undefined) return toModelError(OPENAI_PROVIDER, error, signal);
  return modelError(errorMessage(error), category, error);
}

/**
 * The `ModelError` for a failure the stream itself reported: a Responses `error` event or a
 * `response.failed` response, with OpenAI's `code` word and message.
 */
export function streamFailure(
  code: string | null | undefined,
  message: string,
  cause: unknown,
): ModelError {
  const text = code ? `${code}: ${message}` : message;
  return modelError(text, (code ? ERROR_WORDS.get(code) : undefined) ?? classifyError(text), cause);
}

function sdkCategory(error: unknown): InternalErrorCategory | undefined {
  if (hasClass(error, 'APIConnectionTimeoutError')) return 'timeout';
  if (hasClass(error, 'APIConnectionError')) return 'transient_network';
  if (hasClass(error, 'APIError')) {
    const { status, code, type } = error as { status?: unknown; code?: unknown; type?: unknown };
    if (status !== undefined) return undefined;
    return wordCategory(code) ?? wordCategory(type);
  }
  if (error instanceof TypeError && error.message === 'terminated') return 'transient_network';
  return undefined;
}

function wordCategory(word: unknown): InternalErrorCategory | undefined {
  return typeof word === 'string' ? ERROR_WORDS.get(word) : undefined;
}

function modelError(message: string, category: InternalErrorCategory, cause: unknown): ModelError {
  const status = (cause as { status?: unknown } | null)?.status;
  return new ModelError(`${OPENAI_PROVIDER}: ${message}`, {
    provider: OPENAI_PROVIDER,
    category,
    ...(typeof status === 'number' ? { status } : {}),
    retryable: isTransient(category),
    cause,
  });
}

/** True when a class named `name` is on the error's prototype chain. */
function hasClass(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  for (
    let prototype: unknown = Object.getPrototypeOf(error);
    prototype !== null && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    if ((prototype as { constructor?: { name?: unknown } }).constructor?.name === name) return true;
  }
  return false;
}
