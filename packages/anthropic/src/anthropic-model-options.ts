import type { Anthropic } from '@anthropic-ai/sdk';
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

/** Options of `createAnthropicModel`. */
export interface AnthropicModelOptions {
  /** The model id, e.g. `claude-sonnet-5-5`. Required. */
  readonly model: string;
  /**
   * An SDK client you built (`new Anthropic({ ... })`), for credentials, proxies, headers or a
   * custom fetch. When given, `apiKey` and `baseURL` must be left out: they belong to the client.
   */
  readonly client?: Anthropic;
  /** Default: the SDK's own resolution (`ANTHROPIC_API_KEY`, then profiles). */
  readonly apiKey?: string;
  /** Without `/v1` (the SDK appends `/v1/messages`). Default: `ANTHROPIC_BASE_URL`, else the API. */
  readonly baseURL?: string;
  /**
   * Retries of a request the API refused before streaming (429, 529, 5xx, lost connection);
   * never of a stream that already started. Default: the client's own (the SDK's is 2).
   */
  readonly maxRetries?: number;
  /**
   * How long to wait for the response to start, in milliseconds. The SDK does not time the
   * stream once its headers arrived. Default: the client's own (the SDK's is 10 minutes).
   */
  readonly timeoutMs?: number;
  /**
   * Longest wait for the next stream event once the response has started; the turn then fails
   * with a retryable `timeout` `ModelError`. `Infinity` for no limit. Default 600 000 (10 minutes).
   */
  readonly idleTimeoutMs?: number;
  /** Sent as `max_tokens`, which the Messages API requires. Default 4096. */
  readonly maxTokens?: number;
  /** Sends `tool_choice: {type: 'auto', disable_parallel_tool_use: true}`. Default false. */
  readonly disableParallelToolUse?: boolean;
  /**
   * Server tools the API runs itself (web search, web fetch, code execution, tool search), sent
   * after the client tools on every turn, e.g. `{type: 'web_search_20250305', name: 'web_search'}`.
   * Their calls stream as provider-native and are never dispatched. Default none.
   */
  readonly hostedTools?: readonly Anthropic.Messages.ToolUnion[];
  /**
   * More request-body fields: `thinking` (`{type: 'enabled', budget_tokens}`), `metadata`,
   * `stop_sequences`, `service_tier`, … The fields the adapter sets itself (model, max_tokens,
   * system, messages, tools, tool_choice, stream) win. Default `{}`.
   */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** The checked options, with the client to send through and the per-request SDK options. */
export interface AnthropicSettings {
  readonly client: Anthropic;
  readonly model: string;
  readonly maxTokens: number;
  readonly disableParallelToolUse: boolean;
  readonly hostedTools: readonly Anthropic.Messages.ToolUnion[];
  readonly requestOptions: { readonly maxRetries?: number; readonly timeout?: number };
  /** Undefined: no limit. */
  readonly idleTimeoutMs: number | undefined;
  readonly extraBody: Readonly<Record<string, unknown>>;
}

/** What `max_tokens` is when `maxTokens` is not given. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

const FACTORY = 'createAnthropicModel';

/**
 * Checks the options of `createAnthropicModel` and builds the SDK client when none was given.
 *
 * @throws InvalidOptionError naming the option: a missing model, a client that is not an
 *   Anthropic SDK client, `apiKey`/`baseURL` next to a client, a `baseURL` ending in `/v1`,
 *   a negative or fractional `maxRetries`, a `timeoutMs` or `maxTokens` below 1, or
 *   a `hostedTools` entry without a string `type`, or `temperature` (the Messages API of
 *   version 2026-10-21 has none).
 */
export function resolveAnthropicOptions(input: AnthropicModelOptions): AnthropicSettings {
  const options = optionsObject(FACTORY, input);
  const model = checkString(FACTORY, 'model', options.model, { nonEmpty: true });
  if (Object.hasOwn(options, 'temperature')) {
    throw new InvalidOptionError(
      'temperature',
      `${FACTORY}: temperature is not an option: the Messages API of version 2026-10-21 (SDK 1.x) has no sampling temperature`,
    );
  }
  const maxTokens = checkPositive(
    FACTORY,
    'maxTokens',
    options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    { integer: true },
  );
  const requestOptions: { maxRetries?: number; timeout?: number } = {};
  if (options.maxRetries !== undefined) {
    requestOptions.maxRetries = checkNonNegative(FACTORY, 'maxRetries', options.maxRetries, {
      integer: true,
    });
  }
  if (options.timeoutMs !== undefined) {
    requestOptions.timeout = checkPositive(FACTORY, 'timeoutMs', options.timeoutMs);
  }
  return {
    client: clientOf(options),
    model,
    maxTokens,
    disableParallelToolUse: checkBoolean(
      FACTORY,
      'disableParallelToolUse',
      options.disableParallelToolUse ?? false,
    ),
    hostedTools: checkHostedTools(options.hostedTools ?? []),
    requestOptions,
    idleTimeoutMs: checkTimeLimit(
      FACTORY,
      'idleTimeoutMs',
      options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ),
    extraBody:
      options.extraBody === undefined ? {} : checkObject(FACTORY, 'extraBody', options.extraBody),
  };
}

function clientOf(options: AnthropicModelOptions): Anthropic {
  if (options.client !== undefined) {
    const client = options.client as Partial<Anthropic> | null;
    if (typeof client?.messages?.create !== 'function') {
      throw new InvalidOptionError(
        'client',
        `${FACTORY}: client must be an Anthropic SDK client (new Anthropic({ ... }))`,
      );
    }
    for (const option of ['apiKey', 'baseURL'] as const) {
      if (options[option] !== undefined) {
        throw new InvalidOptionError(
          option,
          `${FACTORY}: ${option} belongs to the client you passed; set it there or leave client out`,
        );
      }
    }
    return options.client;
  }
  const apiKey =
    options.apiKey === undefined
      ? undefined
      : checkString(FACTORY, 'apiKey', options.apiKey, { nonEmpty: true });
  const baseURL = options.baseURL === undefined ? undefined : checkBaseURL(options.baseURL);
  const { Anthropic: AnthropicClient } = requireOptionalPeer<typeof import('@anthropic-ai/sdk')>(
    '@anthropic-ai/sdk',
    FACTORY,
  );
  return new AnthropicClient({
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseURL === undefined ? {} : { baseURL }),
  });
}

function checkBaseURL(value: unknown): string {
  const baseURL = checkString(FACTORY, 'baseURL', value, { nonEmpty: true });
  if (!URL.canParse(baseURL)) {
    throw new InvalidOptionError('baseURL', `${FACTORY}: baseURL must be an absolute URL`);
  }
  // A `/v1` here would post to /v1/v1/messages: the SDK adds the version itself.
  if (/\/v1\/?$/.test(new URL(baseURL).pathname)) {
    throw new InvalidOptionError(
      'baseURL',
      `${FACTORY}: baseURL must not end in /v1; the SDK appends /v1/messages`,
    );
  }
  return baseURL;
}

function checkHostedTools(value: unknown): readonly Anthropic.Messages.ToolUnion[] {
  const valid =
    Array.isArray(value) &&
    value.every((tool) => typeof (tool as { type?: unknown } | null)?.type === 'string');
  if (!valid) {
    throw new InvalidOptionError(
      'hostedTools',
      `${FACTORY}: hostedTools must be an array of server tool definitions, each with a string type`,
    );
  }
  return [...value];
}
