import type { ModelClient } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { streamProviderTurn } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';
import { AnthropicDeltaTranslator } from './anthropic-delta-translator.js';
import { toAnthropicModelError } from './anthropic-model-error.js';
import {
  type AnthropicModelOptions,
  type AnthropicSettings,
  resolveAnthropicOptions,
} from './anthropic-model-options.js';
import { anthropicToolSearches } from './anthropic-tool-searches.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

const PROVIDER = 'anthropic';

/**
 * A `ModelClient` over the Anthropic Messages API (`provider: 'anthropic'`, native tool calling).
 * Each turn is one streamed `POST /v1/messages`: the transcript, system prompt and tools go out
 * (see `toAnthropicRequest`), and the events come back as `ToolCallDelta`s for the native
 * detector (see `AnthropicDeltaTranslator`), ending with `usage` and `finish`.
 *
 * Options: `model` (required); `client` or `apiKey`/`baseURL`; `maxRetries`, `timeoutMs`
 * (default: the client's own); `idleTimeoutMs` (default 10 minutes); `maxTokens` (default 4096); `disableParallelToolUse` (default
 * false); `hostedTools` (default none). See `AnthropicModelOptions`.
 *
 * The stream rejects with `ModelError` when the API fails (HTTP status, `event: error`, dropped
 * connection, a stream that ends before its stop reason; see `toAnthropicModelError`) and with
 * `CancelledError` when `request.signal` aborts — also mid-stream, where the SDK itself would
 * just stop.
 *
 * @throws InvalidOptionError naming the option when an option is invalid.
 * @example
 * const model = createAnthropicModel({ model: 'claude-sonnet-5-5', apiKey: process.env.ANTHROPIC_API_KEY });
 * const detector = createNativeDetector({ toolNames: registry.names(), resolveName, onEvent });
 * for await (const delta of model.stream({ messages, tools: registry.modelDefinitions(), signal })) {
 *   detector.push(delta);
 * }
 * detector.end();
 */
export function createAnthropicModel(options: AnthropicModelOptions): ModelClient {
  const settings = resolveAnthropicOptions(options);
  return {
    provider: PROVIDER,
    model: settings.model,
    toolCalling: 'native',
    nativeToolSearch: ['bm25', 'regex'],
    toolSearchesOf: anthropicToolSearches,
    stream: (request) => streamMessage(settings, request),
  };
}

function streamMessage(
  settings: AnthropicSettings,
  request: ModelRequest,
): AsyncIterable<ToolCallDelta> {
  const { signal } = request;
  const translator = new AnthropicDeltaTranslator();
  return streamProviderTurn({
    provider: PROVIDER,
    open: (turnSignal) =>
      settings.client.messages.create(toAnthropicRequest(request, settings), {
        ...settings.requestOptions,
        signal: turnSignal,
      }),
    translate: (event) => translator.push(event),
    // Held call ends and the finish go out once the stop reason is known to be the last word.
    end: () => translator.end(),
    toError: toAnthropicModelError,
    signal,
    idleTimeoutMs: settings.idleTimeoutMs,
  });
}
