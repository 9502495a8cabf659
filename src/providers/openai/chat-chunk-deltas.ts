import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCallDelta } from '../../streams/tool-call-delta.js';

/** Finish reasons of a response that ended normally: calls still open are complete. */
const SAFE_FINISH = new Set(['stop', 'tool_calls', 'function_call']);

/**
 * Reads a Chat Completions stream, one chunk at a time, as deltas. Returns a translator with the
 * state of one response (which call indexes have opened); make one per response.
 *
 * - The first fragment of each `delta.tool_calls[]` entry (by `index`) opens the call:
 *   `call_start {key: String(index), id, name}`; its argument text, and that of every later
 *   fragment, is a `call_arguments`. Names and ids repeated on later fragments are ignored.
 * - `delta.content` and `delta.refusal` are `text`.
 * - Chat sends no per-call end. OpenAI streams parallel calls one after another, so when call
 *   `index + 1` opens, call `index` is complete: it gets its `call_end` then, and a safe tool
 *   can start while the model still writes the next call (eager dispatch). A server that
 *   interleaves fragments of several calls needs `{ sequentialCalls: false }`: then only the
 *   finish closes calls.
 * - `finish_reason` is the `finish`: `stop`, `tool_calls` (and the legacy `function_call`) are
 *   safe; `length`, `content_filter` and anything unknown are not, so calls still open are
 *   retracted.
 * - The usage chunk (`choices: []`, after the finish) is a `usage`.
 * Only choice 0 is read: the adapter never asks for `n > 1`.
 *
 * @example
 * const translate = chatChunkDeltas();
 * for await (const chunk of stream) for (const delta of translate(chunk)) detector.push(delta);
 */
export function chatChunkDeltas(
  options: { readonly sequentialCalls?: boolean } = {},
): (chunk: ChatCompletionChunk) => ToolCallDelta[] {
  const sequential = options.sequentialCalls ?? true;
  /** Tool-call indexes that have had their `call_start`. */
  const opened = new Set<number>();
  /** The key of the call being written, when calls stream one after another. */
  let writing: string | undefined;

  return function translateChatChunk(chunk) {
    const deltas: ToolCallDelta[] = [];
    const choice = chunk.choices?.find((candidate) => candidate.index === 0);
    const delta = choice?.delta;
    if (typeof delta?.content === 'string' && delta.content !== '') {
      deltas.push({ type: 'text', text: delta.content });
    }
    if (typeof delta?.refusal === 'string' && delta.refusal !== '') {
      deltas.push({ type: 'text', text: delta.refusal });
    }
    for (const [position, call] of (delta?.tool_calls ?? []).entries()) {
      // Some compatible servers leave out `index` when they send whole calls.
      const index = typeof call.index === 'number' ? call.index : position;
      const key = String(index);
      if (!opened.has(index)) {
        opened.add(index);
        if (sequential && writing !== undefined) deltas.push({ type: 'call_end', key: writing });
        writing = key;
        deltas.push({
          type: 'call_start',
          key,
          ...(call.id ? { id: call.id } : {}),
          name: call.function?.name ?? '',
        });
      }
      const fragment = call.function?.arguments;
      if (typeof fragment === 'string' && fragment !== '') {
        deltas.push({ type: 'call_arguments', key, fragment });
      }
    }
    const reason = choice?.finish_reason;
    if (typeof reason === 'string') {
      deltas.push({ type: 'finish', reason, safe: SAFE_FINISH.has(reason) });
    }
    if (chunk.usage) {
      deltas.push({
        type: 'usage',
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens,
      });
    }
    return deltas;
  };
}
