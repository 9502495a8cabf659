import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCallDelta } from 'switchyard/streams';

/** Finish reasons of a response that ended normally: calls still open are complete. */
const SAFE_FINISH = new Set(['stop', 'tool_calls', 'function_call']);

/**
 * Reads a Chat Completions stream, one chunk at a time, as deltas. Returns a translator with the
 * state of one response (which call indexes have opened); make one per response.
 *
 * - Each `delta.tool_calls[]` entry (by `index`) opens its call with `call_start {key:
 *   String(index), id, name}` once a fragment names it, usually the first; argument text that
 *   came before the name follows the start, then each fragment's text is a `call_arguments`, as
 *   the SDK's own accumulator assembles them. A call still unnamed when it ends starts with an
 *   empty name (retracted downstream). Names and ids sent after the start are ignored (a call
 *   whose id comes after its name keeps the id the detector gives it).
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
/** A call seen by its `index`: started once its name is known, its arguments held until then. */
interface ChatCall {
  readonly key: string;
  id: string | undefined;
  started: boolean;
  /** Argument fragments that arrived before the name. */
  held: string[];
}

export function chatChunkDeltas(
  options: { readonly sequentialCalls?: boolean } = {},
): (chunk: ChatCompletionChunk) => ToolCallDelta[] {
  const sequential = options.sequentialCalls ?? true;
  /** Every call of the response by tool-call index. */
  const calls = new Map<number, ChatCall>();
  /** The call being written, when calls stream one after another. */
  let writing: ChatCall | undefined;

  /** `call_start`, then the fragments that waited for it. An empty name is retracted downstream. */
  function start(call: ChatCall, name: string, deltas: ToolCallDelta[]): void {
    call.started = true;
    deltas.push({
      type: 'call_start',
      key: call.key,
      ...(call.id ? { id: call.id } : {}),
      name,
    });
    for (const fragment of call.held)
      deltas.push({ type: 'call_arguments', key: call.key, fragment });
    call.held = [];
  }

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
    for (const [position, fragment] of (delta?.tool_calls ?? []).entries()) {
      // Some compatible servers leave out `index` when they send whole calls.
      const index = typeof fragment.index === 'number' ? fragment.index : position;
      let call = calls.get(index);
      if (call === undefined) {
        call = { key: String(index), id: undefined, started: false, held: [] };
        calls.set(index, call);
        if (sequential && writing !== undefined) {
          if (!writing.started) start(writing, '', deltas);
          deltas.push({ type: 'call_end', key: writing.key });
        }
        writing = call;
      }
      if (!call.started && typeof fragment.id === 'string' && fragment.id !== '') {
        call.id = fragment.id;
      }
      const name = fragment.function?.name;
      if (!call.started && typeof name === 'string' && name !== '') start(call, name, deltas);
      const text = fragment.function?.arguments;
      if (typeof text === 'string' && text !== '') {
        if (call.started) deltas.push({ type: 'call_arguments', key: call.key, fragment: text });
        else call.held.push(text);
      }
    }
    const reason = choice?.finish_reason;
    if (typeof reason === 'string') {
      for (const call of calls.values()) if (!call.started) start(call, '', deltas);
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
