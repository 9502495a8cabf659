import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { ToolCallResult, TranscriptMessage } from 'switchyard';
import type { AssistantMessage } from 'switchyard/providers';
import { describeWithExamples, type ModelToolDefinition } from 'switchyard/tools';
import { type StrictConversions, strictConversionsOf, strictParameters } from './strict-tools.js';

/**
 * The Chat Completions request shapes: tool definitions, the conversation as chat messages and
 * tool results as `role: 'tool'` messages. Pure functions, usable without the adapter (with your
 * own `chat.completions.create` call).
 */

/**
 * Tool definitions as Chat Completions function tools, under their provider-safe names.
 *
 * @param options.strict convert each schema to OpenAI's strict subset where it can be
 *   (`toOpenAIStrictSchema`) and send those with `strict: true`; the model may then write `null`
 *   for an optional field it leaves out: pass its arguments through the conversion's `restore`
 *   before dispatch (the adapters do). Default false: every tool goes as defined, no `strict`.
 * @returns `{type: 'function', function: {name, description, parameters, strict?}}` per definition.
 * @example
 * const tools = toChatTools(registry.modelDefinitions());
 * await client.chat.completions.create({ model, messages, tools });
 */
export function toChatTools(
  definitions: readonly ModelToolDefinition[],
  options: { readonly strict?: boolean } = {},
): ChatCompletionFunctionTool[] {
  return chatTools(definitions, strictConversionsOf(definitions, options.strict === true));
}

/** The function tools of a request whose strict conversions are already made. */
export function chatTools(
  definitions: readonly ModelToolDefinition[],
  conversions: StrictConversions,
): ChatCompletionFunctionTool[] {
  return definitions.map((definition) => {
    const { parameters, strict } = strictParameters(definition, conversions);
    return {
      type: 'function',
      function: {
        name: definition.name,
        description: describeWithExamples(definition.description, definition.inputExamples),
        parameters,
        ...(strict ? { strict } : {}),
      },
    };
  });
}

/**
 * A conversation as chat messages: the system prompt first, then user messages, assistant
 * messages with their `tool_calls` (argument text verbatim, even when broken, so the model sees
 * what it wrote; calls the provider ran itself are left out, Chat cannot replay them) and one
 * `role: 'tool'` message per result.
 *
 * @example
 * toChatMessages('Be brief.', [{ role: 'user', text: 'Hi' }]);
 * // [{role: 'system', content: 'Be brief.'}, {role: 'user', content: 'Hi'}]
 */
export function toChatMessages(
  system: string | undefined,
  messages: readonly TranscriptMessage[],
): ChatCompletionMessageParam[] {
  const chat: ChatCompletionMessageParam[] = [];
  if (system !== undefined && system !== '') chat.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        chat.push({ role: 'user', content: message.text });
        break;
      case 'assistant':
        chat.push(assistantMessage(message));
        break;
      case 'tool':
        for (const result of message.results) {
          chat.push(toolMessage(result.toolCallId, result.content));
        }
        break;
      default:
        message satisfies never;
    }
  }
  return chat;
}

/**
 * Dispatch results as the `role: 'tool'` messages that answer an assistant turn, in the order
 * given (pass them in planner order). The content is each result's `observation`: what the model
 * should read, error and repair hint included. Results of provider-native calls are skipped: the
 * provider answered those itself.
 *
 * @example
 * messages.push(assistantTurn, ...toChatToolMessages(turnResults));
 */
export function toChatToolMessages(
  results: readonly ToolCallResult[],
): ChatCompletionToolMessageParam[] {
  return results
    .filter((result) => result.executor !== 'provider_native')
    .map((result) => toolMessage(result.toolCallId, result.observation));
}

function assistantMessage(message: AssistantMessage): ChatCompletionMessageParam {
  const calls = message.toolCalls.filter((call) => call.providerNative !== true);
  if (calls.length === 0) return { role: 'assistant', content: message.text };
  return {
    role: 'assistant',
    // The API refuses an assistant message with neither content nor tool calls, and takes null
    // content next to tool calls.
    content: message.text === '' ? null : message.text,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    })),
  };
}

function toolMessage(toolCallId: string, content: string): ChatCompletionToolMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content };
}
