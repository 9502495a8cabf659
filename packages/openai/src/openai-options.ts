import type { OpenAI } from 'openai';
import { InvalidOptionError } from 'switchyard';
import {
  checkBoolean,
  checkNonNegative,
  checkObject,
  checkPositive,
  checkString,
  checkTimeLimit,
  optionsObject,
  requireOptionalPeer,
} from 'switchyard/extension';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from 'switchyard/providers';
import { modelTakesStrictTools } from './strict-tools.js';

/** Options both OpenAI adapters take. */
export interface OpenAIModelOptions {
  /** The model id, e.g. `gpt-5.1` (any id the server knows). Required. */
  readonly model: string;
  /**
   * An OpenAI SDK client you built (Azure, a proxy, custom headers, an organization). When
   * given, `apiKey` and `baseURL` must be left out: set them on the client.
   */
  readonly client?: OpenAI;
  /** Default: the `OPENAI_API_KEY` environment variable, as the SDK reads it. */
  readonly apiKey?: string;
  /** Including `/v1`. Default: `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  readonly baseURL?: string;
  /** SDK retries of a failed request (429, 5xx, connection errors) per turn. Default: the SDK's (2). */
  readonly maxRetries?: number;
  /** Time to wait for the response to start, per attempt. Default: the SDK's (10 minutes). */
  readonly timeoutMs?: number;
  /**
   * Longest wait for the next stream event once the response has started; the turn then fails
   * with a retryable `timeout` `ModelError`. `Infinity` for no limit. Default 600 000 (10 minutes).
   */
  readonly idleTimeoutMs?: number;
  /** Sampling temperature. Default: not sent (the model's default). */
  readonly temperature?: number;
  /** Cap on output tokens (`max_completion_tokens` / `max_output_tokens`). Default: not sent. */
  readonly maxOutputTokens?: number;
  /** `parallel_tool_calls`, sent only when tools are offered. Default: not sent (the API's: true). */
  readonly parallelToolCalls?: boolean;
  /**
   * Send tools with `strict: true` (OpenAI Structured Outputs: arguments guaranteed to match the
   * schema) when their schema converts to the strict subset without changing meaning (see
   * `toOpenAIStrictSchema`); the others go with `strict: false`. The `null` the model writes for
   * a left-out optional field is turned back into an absent field before validation. `'auto'`
   * turns it on for models known to support it (GPT-4o from 2024-08-06, GPT-4.1, GPT-5, o1 and
   * later); `false` sends every tool `strict: false`. Default `'auto'`.
   */
  readonly strictTools?: boolean | 'auto';
  /**
   * More request-body fields (`tool_choice`, `reasoning_effort`, `store`, `metadata`, …). The
   * fields the adapter sets itself (model, messages or input, tools, streaming) win.
   */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** The validated options: a client, and what goes into every request. */
export interface ResolvedOpenAIOptions {
  readonly client: OpenAI;
  readonly model: string;
  /** Per-request SDK options (they apply to a client the user built, too). */
  readonly requestOptions: { readonly maxRetries?: number; readonly timeout?: number };
  /** Undefined: no limit. */
  readonly idleTimeoutMs: number | undefined;
  readonly temperature: number | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly parallelToolCalls: boolean | undefined;
  /** Whether tools that convert to the strict subset go with `strict: true`. */
  readonly strictTools: boolean;
  readonly extraBody: Readonly<Record<string, unknown>>;
}

/**
 * Validates the options of an OpenAI adapter and builds its client. `api` names the endpoint the
 * adapter calls, so a client without it (an old SDK, a stand-in) is refused up front.
 *
 * @throws InvalidOptionError naming the option: a missing or empty `model`, a `client` that is
 *   not an OpenAI SDK client, `apiKey`/`baseURL` next to a `client`, no API key anywhere, or a
 *   number or flag of the wrong kind.
 */
export function resolveOpenAIOptions(
  options: OpenAIModelOptions,
  factory: string,
  api: 'chat' | 'responses',
): ResolvedOpenAIOptions {
  const given = optionsObject(factory, options);
  const model = checkString(factory, 'model', given.model, { nonEmpty: true });
  const maxRetries = optional(given.maxRetries, (value) =>
    checkNonNegative(factory, 'maxRetries', value, { integer: true }),
  );
  const timeout = optional(given.timeoutMs, (value) => checkPositive(factory, 'timeoutMs', value));
  return {
    client: clientOf(given, factory, api),
    model,
    requestOptions: {
      ...(maxRetries === undefined ? {} : { maxRetries }),
      ...(timeout === undefined ? {} : { timeout }),
    },
    idleTimeoutMs: checkTimeLimit(
      factory,
      'idleTimeoutMs',
      given.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ),
    temperature: optional(given.temperature, (value) =>
      checkNonNegative(factory, 'temperature', value),
    ),
    maxOutputTokens: optional(given.maxOutputTokens, (value) =>
      checkPositive(factory, 'maxOutputTokens', value, { integer: true }),
    ),
    parallelToolCalls: optional(given.parallelToolCalls, (value) =>
      checkBoolean(factory, 'parallelToolCalls', value),
    ),
    strictTools: strictToolsOf(factory, model, given.strictTools),
    extraBody: optional(given.extraBody, (value) => checkObject(factory, 'extraBody', value)) ?? {},
  };
}

function clientOf(options: OpenAIModelOptions, factory: string, api: 'chat' | 'responses'): OpenAI {
  if (options.client !== undefined) {
    for (const option of ['apiKey', 'baseURL'] as const) {
      if (options[option] !== undefined) {
        throw new InvalidOptionError(
          option,
          `${factory}: ${option} configures the client the adapter builds; set it on your own client instead`,
        );
      }
    }
    const client = options.client as Partial<OpenAI>;
    const create = api === 'chat' ? client.chat?.completions?.create : client.responses?.create;
    if (typeof create !== 'function') {
      throw new InvalidOptionError(
        'client',
        `${factory}: client must be an OpenAI SDK client (new OpenAI({ ... }))`,
      );
    }
    return options.client;
  }
  const apiKey = optional(options.apiKey, (value) =>
    checkString(factory, 'apiKey', value, { nonEmpty: true }),
  );
  const baseURL = optional(options.baseURL, (value) =>
    checkString(factory, 'baseURL', value, { nonEmpty: true }),
  );
  if (apiKey === undefined && !process.env.OPENAI_API_KEY) {
    throw new InvalidOptionError(
      'apiKey',
      `${factory}: no API key: pass apiKey or client, or set OPENAI_API_KEY`,
    );
  }
  const { OpenAI: OpenAIClient } = requireOptionalPeer<typeof import('openai')>('openai', factory);
  return new OpenAIClient({
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseURL === undefined ? {} : { baseURL }),
  });
}

function strictToolsOf(factory: string, model: string, value: unknown): boolean {
  if (value === undefined || value === 'auto') return modelTakesStrictTools(model);
  if (typeof value === 'boolean') return value;
  throw new InvalidOptionError(
    'strictTools',
    `${factory}: strictTools must be true, false or 'auto'`,
  );
}

function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : check(value);
}
