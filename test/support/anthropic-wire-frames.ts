/**
 * Builders for Anthropic Messages wire replies: SSE frames for streamed turns (from a short
 * description of the content blocks) and JSON bodies for errors and non-streamed messages. The
 * shapes follow what `@anthropic-ai/sdk` 1.x parses; every frame carries its `event:` name.
 */

/** One server-sent event: written as `event: <event>` and `data: <JSON of data>`. */
export interface SseFrame {
  readonly event: string;
  readonly data: unknown;
}

/** A content block of a scripted turn. */
export type BlockScript =
  /** Visible text, streamed as one `text_delta` per piece. */
  | { readonly text: string | readonly string[] }
  /** A client tool call; `jsonPieces` are the `input_json_delta` fragments (none means `{}`). */
  | { readonly toolUse: ToolUseScript }
  /** A hosted tool the provider runs itself (web search, tool search). */
  | { readonly serverToolUse: ToolUseScript }
  /** Any other block (a search result, thinking), opened and closed without deltas. */
  | { readonly block: Record<string, unknown> };

export interface ToolUseScript {
  readonly id: string;
  readonly name: string;
  readonly jsonPieces?: readonly string[];
  /** The `input` of `content_block_start`; the API sends `{}` and streams the rest. */
  readonly input?: unknown;
}

export interface MessageStreamOptions {
  /** Default `tool_use` when a client tool is called, else `end_turn`; null sends no message_delta. */
  readonly stopReason?: string | null;
  /** Default true; false ends the frames after message_delta, without message_stop. */
  readonly messageStop?: boolean;
  /** Default false; true leaves the last block open (no content_block_stop). */
  readonly lastBlockOpen?: boolean;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly id?: string;
  readonly model?: string;
}

/**
 * The frames of one streamed turn, in the API's order: message_start, each block's start, deltas
 * and stop, message_delta with the stop reason and output tokens, message_stop.
 *
 * @example
 * messageStream([{ text: 'Looking.' }, { toolUse: { id: 'toolu_1', name: 'read', jsonPieces: ['{"path":', '"a"}'] } }])
 */
export function messageStream(
  blocks: readonly BlockScript[],
  options: MessageStreamOptions = {},
): SseFrame[] {
  const usesTool = blocks.some((block) => 'toolUse' in block);
  const stopReason =
    options.stopReason === undefined ? (usesTool ? 'tool_use' : 'end_turn') : options.stopReason;
  const frames: SseFrame[] = [messageStart(options)];
  blocks.forEach((block, index) => {
    const close = !(options.lastBlockOpen === true && index === blocks.length - 1);
    frames.push(...blockFrames(index, block, { close }));
  });
  if (stopReason !== null) {
    frames.push(messageDelta(stopReason, options.outputTokens ?? 20));
    if (options.messageStop !== false) frames.push(messageStop());
  }
  return frames;
}

export function messageStart(options: MessageStreamOptions = {}): SseFrame {
  return {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: options.id ?? 'msg_wire_1',
        type: 'message',
        role: 'assistant',
        model: options.model ?? 'claude-wire',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: options.inputTokens ?? 10, output_tokens: 1 },
      },
    },
  };
}

/** The start, deltas and (unless `close` is false) stop of one content block. */
export function blockFrames(
  index: number,
  block: BlockScript,
  { close = true }: { readonly close?: boolean } = {},
): SseFrame[] {
  const frames: SseFrame[] = [];
  const delta = (payload: Record<string, unknown>) =>
    frames.push({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta: payload },
    });
  const start = (contentBlock: Record<string, unknown>) =>
    frames.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: contentBlock },
    });
  if ('text' in block) {
    start({ type: 'text', text: '', citations: null });
    const pieces = typeof block.text === 'string' ? [block.text] : block.text;
    for (const text of pieces) delta({ type: 'text_delta', text });
  } else if ('toolUse' in block || 'serverToolUse' in block) {
    const script = 'toolUse' in block ? block.toolUse : block.serverToolUse;
    start({
      type: 'toolUse' in block ? 'tool_use' : 'server_tool_use',
      id: script.id,
      name: script.name,
      input: script.input ?? {},
      caller: { type: 'direct' },
    });
    for (const partial_json of script.jsonPieces ?? [])
      delta({ type: 'input_json_delta', partial_json });
  } else {
    start(block.block);
  }
  if (close)
    frames.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  return frames;
}

export function messageDelta(stopReason: string, outputTokens = 20): SseFrame {
  return {
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
      usage: { output_tokens: outputTokens },
    },
  };
}

export function messageStop(): SseFrame {
  return { event: 'message_stop', data: { type: 'message_stop' } };
}

export function pingFrame(): SseFrame {
  return { event: 'ping', data: { type: 'ping' } };
}

/** An `event: error` frame, as the API sends when it fails mid-stream. */
export function errorFrame(type: string, message: string): SseFrame {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

/** An Anthropic-shaped error body: `{type: 'error', error: {type, message}}`. */
export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: 'req_wire_1' };
}

/** A non-streamed Messages response with these content blocks. */
export function messageBody(
  content: readonly Record<string, unknown>[],
  options: { readonly stopReason?: string; readonly model?: string } = {},
): Record<string, unknown> {
  const usesTool = content.some((block) => block.type === 'tool_use');
  return {
    id: 'msg_wire_1',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-wire',
    content,
    stop_reason: options.stopReason ?? (usesTool ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
