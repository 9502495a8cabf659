import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ModelClient } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { chatChunkDeltas } from './chat-chunk-deltas.js';
import { chatTools, toChatMessages } from './chat-request.js';
import { openAIModelClient } from './openai-model-client.js';
import { type OpenAIModelOptions, resolveOpenAIOptions } from './openai-options.js';
import type { StrictConversions } from './strict-tools.js';

/** Options of `createOpenAIChatModel`. */
export interface OpenAIChatModelOptions extends OpenAIModelOptions {
  /**
   * The server streams parallel calls one after another (OpenAI does), so a call is complete
   * when the next one opens and can start early. Set false for a server that interleaves the
   * fragments of several calls: then calls complete only at the finish. Default true.
   */
  readonly sequentialCalls?: boolean;
}

const FACTORY = 'createOpenAIChatModel';

/**
 * A `ModelClient` over the OpenAI Chat Completions API (`POST {baseURL}/chat/completions`), or
 * any server that speaks it. Provider `openai`, native tool calling.
 *
 * Each `stream(request)` sends one streamed request (`stream: true`, `stream_options:
 * {include_usage: true}`) with the tools under their provider-safe names and the conversation
 * as chat messages, and yields the response as `ToolCallDelta`s (see `chatChunkDeltas`). The
 * request goes out when iteration starts. Options: see `OpenAIModelOptions` (only `model` is
 * required; `maxOutputTokens` is sent as `max_completion_tokens`).
 *
 * The iteration rejects with `ModelError` (HTTP status, error frame mid-stream, lost connection,
 * timeout; `category`, `status`, `retryable`) and with `CancelledError` when `request.signal`
 * aborts, before or during the stream.
 *
 * @throws InvalidOptionError naming the option, at construction.
 * @example
 * const model = createOpenAIChatModel({ model: 'gpt-5.1', apiKey: process.env.OPENAI_API_KEY });
 * const detector = createNativeDetector({ toolNames: registry.names(), resolveName, onEvent });
 * for await (const delta of model.stream({ messages, tools: registry.modelDefinitions() })) {
 *   detector.push(delta);
 * }
 * detector.end();
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ModelClient {
  const settings = resolveOpenAIOptions(options, FACTORY, 'chat');
  const sequentialCalls = options.sequentialCalls ?? true;
  if (typeof sequentialCalls !== 'boolean') {
    throw new InvalidOptionError(
      'sequentialCalls',
      `${FACTORY}: sequentialCalls must be a boolean`,
    );
  }
  const { client, model } = settings;

  function body(
    request: ModelRequest,
    conversions: StrictConversions,
  ): ChatCompletionCreateParamsStreaming {
    const hasTools = request.tools.length > 0;
    return {
      ...settings.extraBody,
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.maxOutputTokens === undefined
        ? {}
        : { max_completion_tokens: settings.maxOutputTokens }),
      // The API refuses an empty tools list, and parallel_tool_calls without tools.
      ...(hasTools ? { tools: chatTools(request.tools, conversions) } : {}),
      ...(hasTools && settings.parallelToolCalls !== undefined
        ? { parallel_tool_calls: settings.parallelToolCalls }
        : {}),
      model,
      messages: toChatMessages(request.system, request.messages),
      stream: true,
      stream_options: { include_usage: true },
    };
  }

  return openAIModelClient(settings, {
    body,
    send: (params, requestOptions) => client.chat.completions.create(params, requestOptions),
    translator: () => chatChunkDeltas({ sequentialCalls }),
  });
}
