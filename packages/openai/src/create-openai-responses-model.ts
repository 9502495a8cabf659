import type { ResponseCreateParamsStreaming, Tool } from 'openai/resources/responses/responses';
import type { ModelClient } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { isPlainObject } from 'switchyard/tools';
import { clientRunReason } from './client-run-tools.js';
import { openAIModelClient } from './openai-model-client.js';
import { type OpenAIModelOptions, resolveOpenAIOptions } from './openai-options.js';
import { responsesEventDeltas } from './responses-event-deltas.js';
import {
  responsesTools,
  toResponsesInput,
  toResponsesToolSearchTools,
} from './responses-request.js';
import { responsesToolSearches } from './responses-tool-searches.js';
import type { StrictConversions } from './strict-tools.js';

/** Options of `createOpenAIResponsesModel`. */
export interface OpenAIResponsesModelOptions extends OpenAIModelOptions {
  /**
   * Tools OpenAI runs itself, offered after the function tools: `{type: 'web_search'}`,
   * `{type: 'file_search', vector_store_ids}`, `{type: 'mcp', require_approval: 'never', …}`, …
   * Their calls come back as provider-native deltas: recorded, never dispatched here. Tools whose
   * calls the client must answer (`computer_use_preview`, `local_shell`, `apply_patch`, a `shell`
   * without a container, an `mcp` tool that asks for approval, function and custom tools) are
   * refused. Default: none.
   */
  readonly hostedTools?: readonly Tool[];
}

const FACTORY = 'createOpenAIResponsesModel';

/**
 * A `ModelClient` over the OpenAI Responses API (`POST {baseURL}/responses`). Provider
 * `openai`, native tool calling.
 *
 * Each `stream(request)` sends one streamed request with flat function tools (provider-safe
 * names, `strict: true` where the schema converts and `strictTools` allows, else `strict: false`) plus any `hostedTools`, the system prompt as `instructions` and the
 * conversation as input items, and yields the events as `ToolCallDelta`s (see
 * `responsesEventDeltas`). The request goes out when iteration starts. Options: see
 * `OpenAIModelOptions` (only `model` is required; `maxOutputTokens` is sent as
 * `max_output_tokens`) and `hostedTools`.
 *
 * The iteration rejects with `ModelError` (HTTP status, `response.failed`, an `error` event, a
 * lost connection, a timeout) and with `CancelledError` when `request.signal` aborts, before or
 * during the stream.
 *
 * @throws InvalidOptionError naming the option, at construction.
 * @example
 * const model = createOpenAIResponsesModel({
 *   model: 'gpt-5.1',
 *   apiKey: process.env.OPENAI_API_KEY,
 *   hostedTools: [{ type: 'web_search' }],
 * });
 * for await (const delta of model.stream({ messages, tools: registry.modelDefinitions() })) {
 *   detector.push(delta);
 * }
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): ModelClient {
  const settings = resolveOpenAIOptions(options, FACTORY, 'responses');
  const { client, model } = settings;
  const hostedTools = checkHostedTools(options.hostedTools);

  function body(
    request: ModelRequest,
    conversions: StrictConversions,
  ): ResponseCreateParamsStreaming {
    const tools = [
      ...toResponsesToolSearchTools(request.toolSearch),
      ...responsesTools(request.tools, conversions),
      ...hostedTools,
    ];
    return {
      ...settings.extraBody,
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.maxOutputTokens === undefined
        ? {}
        : { max_output_tokens: settings.maxOutputTokens }),
      ...(tools.length > 0 ? { tools } : {}),
      ...(tools.length > 0 && settings.parallelToolCalls !== undefined
        ? { parallel_tool_calls: settings.parallelToolCalls }
        : {}),
      ...(request.system === undefined || request.system === ''
        ? {}
        : { instructions: request.system }),
      model,
      input: toResponsesInput(request.messages),
      stream: true,
    };
  }

  const modelClient = openAIModelClient(settings, {
    body,
    send: (params, requestOptions) => client.responses.create(params, requestOptions),
    translator: () => responsesEventDeltas({ stored: settings.extraBody.store !== false }),
  });
  // Hosted tool search has no variants of its own: a bm25-style request maps onto it.
  return { ...modelClient, nativeToolSearch: ['bm25'], toolSearchesOf: responsesToolSearches };
}

function checkHostedTools(value: unknown): readonly Tool[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    value.some((tool) => !isPlainObject(tool) || typeof tool.type !== 'string')
  ) {
    throw new InvalidOptionError(
      'hostedTools',
      `${FACTORY}: hostedTools must be an array of tool objects with a type, e.g. [{ type: 'web_search' }]`,
    );
  }
  value.forEach((tool: Tool, index) => {
    const reason = clientRunReason(tool);
    if (reason !== null) {
      throw new InvalidOptionError(
        'hostedTools',
        `${FACTORY}: hostedTools[${index}] is not run by OpenAI alone: ${reason}`,
      );
    }
  });
  return [...value];
}
