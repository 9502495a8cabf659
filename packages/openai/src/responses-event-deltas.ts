import type {
  Response,
  ResponseOutputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import type { ToolCallDelta } from 'switchyard/streams';
import { CLIENT_RUN_ITEMS } from './client-run-tools.js';
import { streamFailure } from './openai-model-error.js';
import { RESPONSES_RECORD } from './responses-request.js';

/** Options of `responsesEventDeltas`. */
export interface ResponsesTranslationOptions {
  /**
   * The request left `store` on (the API's default). With `store: false`, a response's reasoning
   * items can be replayed only when they carry `encrypted_content` (request it with `include:
   * ['reasoning.encrypted_content']`); otherwise the turn is not recorded. Default true.
   */
  readonly stored?: boolean;
}

/** Output items that are neither calls nor provider-run tools. */
const NOT_CALLS = new Set(['message', 'reasoning']);

/**
 * Reads a Responses stream, one event at a time, as deltas. Returns a translator; it keeps no
 * state, but make one per response like the Chat one.
 *
 * - `response.output_item.added` with a `function_call` item opens the call: `call_start {key:
 *   item.id, id: call_id, name}`; `response.function_call_arguments.delta` (by `item_id`) is a
 *   `call_arguments`; `response.output_item.done` is its `call_end` with the full arguments,
 *   unless the item's status is `incomplete` (cut off by the output limit: it stays open, and the
 *   unsafe finish retracts it).
 * - Any other item but `message` and `reasoning` (`web_search_call`, `file_search_call`,
 *   `tool_search_call`, `mcp_call`, `code_interpreter_call`, …) is a tool the provider ran:
 *   `call_start {name: item.type, providerNative: true}`, and at `done` a `call_end` carrying
 *   the item's JSON, so it is recorded and never dispatched here. Items that wait for the
 *   client's answer (`computer_call`, `local_shell_call`, `apply_patch_call`, `custom_tool_call`,
 *   `mcp_approval_request`) open an ordinary call named by the item type instead: unless a tool of
 *   that name exists it fails as an unknown tool, and the model is told.
 * - `response.output_text.delta` and `response.refusal.delta` are `text`.
 * - `response.completed` is `usage`, then the response's `output` items as a `provider_content`
 *   delta when they hold reasoning or hosted tool items (see `recordedOutput`), then a safe
 *   `finish` (`completed`); `response.incomplete` is
 *   `usage` then an unsafe `finish` whose reason is `incomplete_details.reason`
 *   (`max_output_tokens`, `content_filter`).
 * - `response.failed` and `error` throw a `ModelError` classified by OpenAI's error code.
 *
 * @throws ModelError for `response.failed` and `error` events.
 * @example
 * const translate = responsesEventDeltas();
 * for await (const event of stream) for (const delta of translate(event)) detector.push(delta);
 */
export function responsesEventDeltas(
  options: ResponsesTranslationOptions = {},
): (event: ResponseStreamEvent) => ToolCallDelta[] {
  const stored = options.stored ?? true;
  return function translateResponsesEvent(event) {
    switch (event.type) {
      case 'response.output_item.added':
        return itemOpened(event.item, event.output_index);
      case 'response.function_call_arguments.delta':
        if (event.delta === '') return [];
        return [
          {
            type: 'call_arguments',
            key: keyOf(event.item_id, event.output_index),
            fragment: event.delta,
          },
        ];
      case 'response.output_item.done':
        return itemDone(event.item, event.output_index);
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return event.delta === '' ? [] : [{ type: 'text', text: event.delta }];
      case 'response.completed':
        return [
          ...usageOf(event.response),
          ...recordedOutput(event.response, stored),
          { type: 'finish', reason: 'completed', safe: true },
        ];
      case 'response.incomplete':
        return [
          ...usageOf(event.response),
          {
            type: 'finish',
            reason: event.response.incomplete_details?.reason ?? 'incomplete',
            safe: false,
          },
        ];
      case 'response.failed': {
        const failure = event.response.error;
        throw streamFailure(failure?.code, failure?.message ?? 'the response failed', event);
      }
      case 'error':
        throw streamFailure(event.code, event.message, event);
      default:
        return [];
    }
  };
}

function itemOpened(item: ResponseOutputItem, outputIndex: number): ToolCallDelta[] {
  if (NOT_CALLS.has(item.type)) return [];
  const key = keyOf(item.id, outputIndex);
  if (item.type !== 'function_call') {
    const id = callIdOf(item) ?? item.id;
    const providerNative = !CLIENT_RUN_ITEMS.has(item.type);
    return [
      {
        type: 'call_start',
        key,
        ...(id ? { id } : {}),
        name: item.type,
        ...(providerNative ? { providerNative } : {}),
      },
    ];
  }
  const deltas: ToolCallDelta[] = [
    { type: 'call_start', key, ...(item.call_id ? { id: item.call_id } : {}), name: item.name },
  ];
  // OpenAI opens the item with empty arguments; some compatible servers send them whole here.
  if (item.arguments) deltas.push({ type: 'call_arguments', key, fragment: item.arguments });
  return deltas;
}

function itemDone(item: ResponseOutputItem, outputIndex: number): ToolCallDelta[] {
  if (NOT_CALLS.has(item.type)) return [];
  // An item the output limit cut off is done but `incomplete`: it gets no end, so the unsafe
  // finish that follows retracts it instead of running truncated arguments.
  if ((item as { status?: unknown }).status === 'incomplete') return [];
  const key = keyOf(item.id, outputIndex);
  const text = item.type === 'function_call' ? item.arguments : JSON.stringify(item);
  return [{ type: 'call_end', key, arguments: text }];
}

/** Items are keyed by their id; an item without one (a lax server) by its output position. */
function keyOf(itemId: string | null | undefined, outputIndex: number): string {
  return itemId ? itemId : `output_${outputIndex}`;
}

function callIdOf(item: ResponseOutputItem): string | undefined {
  const callId = (item as { call_id?: unknown }).call_id;
  return typeof callId === 'string' && callId !== '' ? callId : undefined;
}

/** Items the neutral transcript rebuilds on its own: text messages and function calls. */
const REBUILDABLE = new Set(['message', 'function_call']);

/**
 * The output items of a completed response, to be sent back verbatim (OpenAI's own advice: keep
 * reasoning items and hosted tool calls in the conversation), when there is anything the neutral
 * transcript would lose. Never when an item waits for the client: a `computer_call` replayed
 * as it is would need a `computer_call_output`, and it is answered as an unknown function.
 */
function recordedOutput(response: Response, stored: boolean): ToolCallDelta[] {
  const output = response.output ?? [];
  const needed = output.some((item) => !REBUILDABLE.has(item.type));
  if (!needed || output.some((item) => CLIENT_RUN_ITEMS.has(item.type))) return [];
  // Unstored reasoning can only be sent back with its encrypted content; without it the API
  // would look the item up by id and fail, so such a turn is rebuilt instead.
  if (!stored && output.some((item) => item.type === 'reasoning' && !item.encrypted_content)) {
    return [];
  }
  return [{ type: 'provider_content', content: { provider: RESPONSES_RECORD, content: output } }];
}

function usageOf(response: Response): ToolCallDelta[] {
  const { usage } = response;
  if (!usage) return [];
  return [{ type: 'usage', inputTokens: usage.input_tokens, outputTokens: usage.output_tokens }];
}
