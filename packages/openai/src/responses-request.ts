import type {
  FunctionTool,
  NamespaceTool,
  ResponseInputItem,
  Tool,
} from 'openai/resources/responses/responses';
import type { ToolCallResult, TranscriptMessage } from 'switchyard';
import type { NativeToolSearchRequest } from 'switchyard/providers';
import { describeWithExamples, type ModelToolDefinition } from 'switchyard/tools';
import { type StrictConversions, strictConversionsOf, strictParameters } from './strict-tools.js';

/**
 * The Responses request shapes: flat function tools, the conversation as input items and tool
 * results as `function_call_output` items. Pure functions, usable without the adapter (with your
 * own `responses.create` call).
 */

/** Tags the output items a Responses response recorded (`provider_content`), to replay them. */
export const RESPONSES_RECORD = 'openai-responses';

/** A function call's answer as a Responses input item. */
export type FunctionCallOutputItem = ResponseInputItem.FunctionCallOutput;

/**
 * Tool definitions as Responses function tools, under their provider-safe names.
 *
 * @param options.strict convert each schema to OpenAI's strict subset where it can be
 *   (`toOpenAIStrictSchema`) and send those with `strict: true`; the model may then write `null`
 *   for an optional field it leaves out: pass its arguments through the conversion's `restore`
 *   before dispatch (the adapters do). Default false: every tool goes as defined with
 *   `strict: false` (the API's own default would be strict).
 * @returns `{type: 'function', name, description, parameters, strict}` per definition.
 * @example
 * await client.responses.create({ model, input, tools: toResponsesTools(registry.modelDefinitions()) });
 */
export function toResponsesTools(
  definitions: readonly ModelToolDefinition[],
  options: { readonly strict?: boolean } = {},
): FunctionTool[] {
  return responsesTools(definitions, strictConversionsOf(definitions, options.strict === true));
}

/** The function tools of a request whose strict conversions are already made. */
export function responsesTools(
  definitions: readonly ModelToolDefinition[],
  conversions: StrictConversions,
): FunctionTool[] {
  return definitions.map((definition) => ({
    type: 'function',
    name: definition.name,
    description: describeWithExamples(definition.description, definition.inputExamples),
    ...strictParameters(definition, conversions),
  }));
}

/**
 * A conversation as Responses input items: `message` items for user and assistant text, a
 * `function_call` item per call the model made (argument text verbatim, even when broken; calls
 * the provider ran itself are left out, they have no local answer to pair with) and a
 * `function_call_output` item per result. An assistant message that recorded its response's
 * output items (`providerContent` from a Responses model: reasoning, hosted calls) sends those
 * items instead, verbatim. The system prompt travels as `instructions`, not here.
 *
 * @example
 * toResponsesInput([{ role: 'user', text: 'Hi' }]);
 * // [{type: 'message', role: 'user', content: 'Hi'}]
 */
export function toResponsesInput(messages: readonly TranscriptMessage[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        input.push({ type: 'message', role: 'user', content: message.text });
        break;
      case 'assistant':
        if (message.providerContent?.provider === RESPONSES_RECORD) {
          // The response's own items, reasoning and hosted calls included, as OpenAI advises.
          input.push(...(message.providerContent.content as ResponseInputItem[]));
          break;
        }
        if (message.text !== '') {
          input.push({ type: 'message', role: 'assistant', content: message.text });
        }
        for (const call of message.toolCalls) {
          if (call.providerNative === true) continue;
          input.push({
            type: 'function_call',
            call_id: call.id,
            name: call.name,
            arguments: call.argumentsText,
          });
        }
        break;
      case 'tool':
        for (const result of message.results) {
          input.push(functionCallOutput(result.toolCallId, result.content));
        }
        break;
      default:
        message satisfies never;
    }
  }
  return input;
}

/**
 * Dispatch results as `function_call_output` input items, in the order given (pass them in
 * planner order). The output is each result's `observation`: what the model should read, error
 * and repair hint included. Results of provider-native calls are skipped: the provider answered
 * those itself.
 *
 * @example
 * input.push(...response.output, ...toResponsesFunctionOutputs(turnResults));
 */
export function toResponsesFunctionOutputs(
  results: readonly ToolCallResult[],
): FunctionCallOutputItem[] {
  return results
    .filter((result) => result.executor !== 'provider_native')
    .map((result) => functionCallOutput(result.toolCallId, result.observation));
}

function functionCallOutput(callId: string, output: string): FunctionCallOutputItem {
  return { type: 'function_call_output', call_id: callId, output };
}

/**
 * Responses' hosted tool search: `{type: 'tool_search'}` first, then the deferred tools with
 * `defer_loading: true` — loose, or grouped into `namespace` tools by their `namespace`.
 *
 * @returns no tools when `search` is undefined.
 */
export function toResponsesToolSearchTools(search: NativeToolSearchRequest | undefined): Tool[] {
  if (search === undefined) return [];
  const loose: Tool[] = [];
  const grouped = new Map<string, NamespaceTool.Function[]>();
  for (const definition of search.deferred) {
    const tool = {
      type: 'function' as const,
      name: definition.name,
      description: describeWithExamples(definition.description, definition.inputExamples),
      parameters: definition.inputSchema as Record<string, unknown>,
      strict: false,
      defer_loading: true,
    };
    if (definition.namespace === undefined || definition.namespace === '') loose.push(tool);
    else grouped.set(definition.namespace, [...(grouped.get(definition.namespace) ?? []), tool]);
  }
  const namespaces: Tool[] = [...grouped].map(([name, tools]) => ({
    type: 'namespace',
    name,
    description: `Tools of ${name}.`,
    tools,
  }));
  return [{ type: 'tool_search' }, ...loose, ...namespaces];
}
