/**
 * Builders for OpenAI wire replies from short descriptions: Chat Completions chunks and
 * Responses events (SSE), JSON completions and responses, and error bodies. The shapes are the
 * ones the SDK was verified against (reference/sdk-facts.md §2).
 */

/** One step of a streamed (SSE) reply. */
export type SseStep =
  /** A frame: `event: <event>` (when given) and `data: <data>` (strings raw, anything else JSON). */
  | { readonly data: unknown; readonly event?: string }
  /** Wait this long before the next step (for timing demos; order tests use `waitFor`). */
  | { readonly delayMs: number }
  /** Send nothing more until this settles: the test decides when the stream goes on. */
  | { readonly waitFor: PromiseLike<unknown> }
  /** Destroy the socket: the connection is lost mid-stream. */
  | { readonly cut: true }
  /** Keep the stream open, sending nothing, until the client goes away. */
  | { readonly hold: true };

/** How the server answers one request. */
export type WireReply =
  /** A JSON body (a completion, a response, or an error body with an error status). */
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  /** `200 text/event-stream`, then the steps in order, then the end of the body. */
  | { readonly sse: readonly SseStep[] }
  /** Never answer: no status, no headers, until the client goes away. */
  | { readonly hold: true };

/** A call as a script describes it: its arguments arrive in these pieces. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: readonly string[];
}

export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

/** An HTTP error with OpenAI's error body (`{error: {message, type, code}}`). */
export function errorReply(
  status: number,
  message: string,
  options: { type?: string; code?: string | null; headers?: Record<string, string> } = {},
): WireReply {
  return {
    status,
    json: {
      error: { message, type: options.type ?? 'invalid_request_error', code: options.code ?? null },
    },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}

/** An error frame mid-stream: the SDK turns `data: {"error": …}` into an `APIError`. */
export function errorFrame(message: string, type: string, code: string | null = null): SseStep {
  return { data: { error: { message, type, code } } };
}

// ---------------------------------------------------------------------------------------------
// Chat Completions

/** One `chat.completion.chunk` frame for choice 0. */
export function chatChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): SseStep {
  return {
    data: {
      id: 'chatcmpl_1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    },
  };
}

/** The usage chunk that `stream_options.include_usage` adds after the finish. */
export function chatUsageChunk(usage: ScriptedUsage): SseStep {
  return {
    data: {
      id: 'chatcmpl_1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    },
  };
}

export const chatDone: SseStep = { data: '[DONE]' };

/**
 * The frames of a streamed chat turn as OpenAI sends them: a role chunk (the SDK's helper needs
 * it), the text, then each call in turn (a first fragment with id, name and empty arguments, then
 * one chunk per piece), the finish chunk, the usage chunk and `[DONE]`. Pass `finish: null` to
 * stop after the calls (no finish, usage or `[DONE]`), e.g. before a cut.
 */
export function chatToolCallStream(
  calls: readonly ScriptedCall[],
  options: { text?: string; finish?: string | null; usage?: ScriptedUsage } = {},
): SseStep[] {
  const steps: SseStep[] = [chatChunk({ role: 'assistant', content: null })];
  if (options.text !== undefined) steps.push(chatChunk({ content: options.text }));
  calls.forEach((call, index) => {
    steps.push(
      chatChunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of call.arguments) {
      steps.push(chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const finish = options.finish === undefined ? 'tool_calls' : options.finish;
  if (finish === null) return steps;
  steps.push(chatChunk({}, finish));
  steps.push(chatUsageChunk(options.usage ?? { input: 10, output: 20 }));
  steps.push(chatDone);
  return steps;
}

/** A non-streamed chat completion whose message has this text and these calls. */
export function chatCompletionReply(
  calls: readonly { id: string; name: string; arguments: string }[],
  options: { text?: string | null; finish?: string } = {},
): WireReply {
  return {
    json: {
      id: 'chatcmpl_1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          finish_reason: options.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
          logprobs: null,
          message: {
            role: 'assistant',
            content: options.text ?? null,
            refusal: null,
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }),
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Responses

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
 * the terminal event.
 */
export function responsesToolCallStream(
  calls: readonly ScriptedResponsesCall[],
  options: {
    text?: string;
    hosted?: readonly Record<string, unknown>[];
    end?: ResponsesEnd;
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
  for (const call of calls) {
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
    script.event('response.output_item.done', { output_index: index, item: done });
    output.push(done);
  }
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
