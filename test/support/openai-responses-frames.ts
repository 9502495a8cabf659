import type { ScriptedCall, ScriptedUsage, SseStep } from './openai-wire-script.js';

/**
 * Responses replies from short descriptions: numbered stream events (SSE) and response objects.
 */

/** A Responses call as a script describes it: the item id keys its deltas. */
export interface ScriptedResponsesCall extends ScriptedCall {
  /** The output item id (`fc_…`); `id` is the `call_id`. */
  readonly itemId: string;
}

/** How a scripted response ends. */
export type ResponsesEnd =
  | { readonly status: 'completed'; readonly usage?: ScriptedUsage }
  | { readonly status: 'incomplete'; readonly reason: string; readonly usage?: ScriptedUsage }
  | { readonly status: 'failed'; readonly code: string; readonly message: string }
  /** An `error` event mid-stream (`{type: 'error', code, message, param}`) in place of the end. */
  | { readonly status: 'error'; readonly code: string; readonly message: string }
  /** No terminal event: the steps stop after the items (e.g. before a cut). */
  | { readonly status: 'none' };

/** Numbers the Responses events of one script, as the API does. */
export class ResponsesScript {
  private sequence = 0;
  readonly steps: SseStep[] = [];

  /** Adds one event: `event: <type>` and `data: {type, sequence_number, …fields}`. */
  event(type: string, fields: Record<string, unknown> = {}): this {
    this.steps.push({ event: type, data: { type, sequence_number: this.sequence++, ...fields } });
    return this;
  }
}

/** A `response` object with this status, output and usage. */
export function responseObject(
  status: string,
  output: readonly unknown[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: 'fake-model',
    output,
    error: null,
    incomplete_details: null,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    ...extra,
  };
}

/** A completed `function_call` output item. */
export function functionCallItem(call: {
  itemId: string;
  id: string;
  name: string;
  arguments: string;
}): Record<string, unknown> {
  return {
    type: 'function_call',
    id: call.itemId,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  };
}

/**
 * The events of a streamed Responses turn as OpenAI sends them: `response.created`, an optional
 * text message (item added, text deltas, item done), hosted tool items (added, then done with
 * the full item), each function call (item added with empty arguments, one
 * `response.function_call_arguments.delta` per piece, item done with the full arguments), then
 * the terminal event. `lastCallOpen` leaves out the last call's `output_item.done` (and its item
 * from the terminal response's output): the call a `response.incomplete` cut off mid-arguments.
 */
export function responsesToolCallStream(
  calls: readonly ScriptedResponsesCall[],
  options: {
    text?: string;
    hosted?: readonly Record<string, unknown>[];
    end?: ResponsesEnd;
    lastCallOpen?: boolean;
  } = {},
): SseStep[] {
  const script = new ResponsesScript();
  const output: unknown[] = [];
  script.event('response.created', { response: responseObject('in_progress') });
  if (options.text !== undefined) {
    const index = output.length;
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'in_progress',
      content: [],
    };
    const done = {
      ...item,
      status: 'completed',
      content: [{ type: 'output_text', text: options.text, annotations: [] }],
    };
    script
      .event('response.output_item.added', { output_index: index, item })
      .event('response.output_text.delta', {
        item_id: 'msg_1',
        output_index: index,
        content_index: 0,
        delta: options.text,
        logprobs: [],
      })
      .event('response.output_item.done', { output_index: index, item: done });
    output.push(done);
  }
  for (const hosted of options.hosted ?? []) {
    const index = output.length;
    script
      .event('response.output_item.added', {
        output_index: index,
        item: { ...hosted, status: 'in_progress' },
      })
      .event('response.output_item.done', { output_index: index, item: hosted });
    output.push(hosted);
  }
  calls.forEach((call, position) => {
    const index = output.length;
    const done = functionCallItem({ ...call, arguments: call.arguments.join('') });
    script.event('response.output_item.added', {
      output_index: index,
      item: { ...done, arguments: '', status: 'in_progress' },
    });
    for (const piece of call.arguments) {
      script.event('response.function_call_arguments.delta', {
        item_id: call.itemId,
        output_index: index,
        delta: piece,
      });
    }
    if (options.lastCallOpen === true && position === calls.length - 1) return;
    script.event('response.output_item.done', { output_index: index, item: done });
    output.push(done);
  });
  const end = options.end ?? { status: 'completed' };
  switch (end.status) {
    case 'completed':
      script.event('response.completed', {
        response: responseObject('completed', output, { usage: responsesUsage(end.usage) }),
      });
      break;
    case 'incomplete':
      script.event('response.incomplete', {
        response: responseObject('incomplete', output, {
          incomplete_details: { reason: end.reason },
          usage: responsesUsage(end.usage),
        }),
      });
      break;
    case 'failed':
      script.event('response.failed', {
        response: responseObject('failed', output, {
          error: { code: end.code, message: end.message },
        }),
      });
      break;
    case 'error':
      script.event('error', { code: end.code, message: end.message, param: null });
      break;
    case 'none':
      break;
  }
  return script.steps;
}

/** Responses usage as the API reports it. */
export function responsesUsage(usage: ScriptedUsage = { input: 10, output: 20 }) {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

/** A computer-use call: an output item that waits for the client's answer. */
export const computerCallItem = {
  type: 'computer_call',
  id: 'cu_1',
  call_id: 'call_cu',
  action: { type: 'screenshot' },
  pending_safety_checks: [],
  status: 'completed',
} as const;
