import type { CancelledError, ModelError } from 'switchyard';
import type { InternalErrorCategory } from 'switchyard/dispatch';
import { classifyError } from 'switchyard/dispatch';
import { modelError, toModelError } from 'switchyard/providers';

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
 * `toModelError` for the OpenAI SDK: OpenAI's error words in an error's `code` or `type`
 * (`server_error`, `rate_limit_exceeded`, `overloaded_error`, …) decide for error frames
 * mid-stream, which carry no HTTP status and rarely name the cause in their message; dropped and
 * refused connections, timeouts, missing credentials and aborts as for every provider.
 *
 * @returns `CancelledError` when `signal` aborted (its reason, if that is one), else the mapping.
 * @example
 * try {
 *   await client.chat.completions.create(params, { signal });
 * } catch (error) {
 *   throw toOpenAIModelError(error, signal); // ModelError { category: 'rate_limit', status: 429, retryable: true }
 * }
 */
export function toOpenAIModelError(
  error: unknown,
  signal?: AbortSignal,
): ModelError | CancelledError {
  return toModelError(OPENAI_PROVIDER, error, signal, ERROR_WORDS);
}

/**
 * @deprecated Renamed `toOpenAIModelError`, the same shape as the Anthropic package's
 * `toAnthropicModelError`; this alias goes in the next minor version.
 */
export const openAIModelError = toOpenAIModelError;

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
  const category = (code ? ERROR_WORDS.get(code) : undefined) ?? classifyError(text);
  return modelError(OPENAI_PROVIDER, text, category, cause);
}
