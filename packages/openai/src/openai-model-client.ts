import type { ModelClient } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { streamProviderTurn } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';
import { OPENAI_PROVIDER, toOpenAIModelError } from './openai-model-error.js';
import type { ResolvedOpenAIOptions } from './openai-options.js';
import {
  restoringStrictArguments,
  type StrictConversions,
  strictConversionsOf,
} from './strict-tools.js';

/** What one OpenAI API adds to the shared adapter: its request body, call and translator. */
export interface OpenAIEndpoint<Params, Event> {
  /**
   * The request body of a turn, its tools converted as `conversions` say; built when `stream` is
   * called, so a bad request throws there.
   */
  readonly body: (request: ModelRequest, conversions: StrictConversions) => Params;
  /** Sends the streamed request with the SDK options and the turn's signal. */
  readonly send: (
    params: Params,
    options: ResolvedOpenAIOptions['requestOptions'] & { readonly signal: AbortSignal },
  ) => PromiseLike<AsyncIterable<Event>>;
  /** A fresh translator of the API's events, one per response. */
  readonly translator: () => (event: Event) => Iterable<ToolCallDelta>;
}

/** A native-calling `ModelClient` of provider `openai` over one endpoint. */
export function openAIModelClient<Params, Event>(
  settings: ResolvedOpenAIOptions,
  endpoint: OpenAIEndpoint<Params, Event>,
): ModelClient {
  return {
    provider: OPENAI_PROVIDER,
    model: settings.model,
    toolCalling: 'native',
    stream(request) {
      const conversions = strictConversionsOf(request.tools, settings.strictTools);
      const params = endpoint.body(request, conversions);
      return streamProviderTurn({
        provider: OPENAI_PROVIDER,
        open: (signal) => endpoint.send(params, { ...settings.requestOptions, signal }),
        translate: restoringStrictArguments(endpoint.translator(), conversions),
        toError: toOpenAIModelError,
        signal: request.signal,
        idleTimeoutMs: settings.idleTimeoutMs,
      });
    },
  };
}
