import type { ToolCallDelta } from '../../streams/tool-call-delta.js';
import { abortedTurn } from '../provider-errors.js';
import { OPENAI_PROVIDER, openAIModelError } from './openai-model-error.js';

/** How one adapter opens its stream and reads its events. */
export interface OpenAITurnSource<Event> {
  /** Sends the request; settles with the SDK's stream once the response has started. */
  readonly open: () => PromiseLike<AsyncIterable<Event>>;
  /** The deltas one wire event stands for; throws a `ModelError` for a failure event. */
  readonly translate: (event: Event) => readonly ToolCallDelta[];
  readonly signal: AbortSignal | undefined;
}

/**
 * Streams one OpenAI turn as deltas, with the failure rules both adapters share. Whatever the
 * SDK throws (before the first event or mid-stream) becomes a `ModelError` or `CancelledError`.
 * An abort mid-stream ends the SDK's `for await` silently, as if the response were over, so the
 * signal is checked once more after the loop: a cancelled turn always rejects with
 * `CancelledError`, never ends quietly with half a response.
 *
 * Breaking out of the iteration early closes the SDK stream, which aborts the HTTP request.
 */
export async function* streamOpenAITurn<Event>(
  source: OpenAITurnSource<Event>,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const { signal } = source;
  if (signal?.aborted) throw abortedTurn(OPENAI_PROVIDER, signal);
  try {
    const events = await source.open();
    for await (const event of events) {
      for (const delta of source.translate(event)) yield delta;
    }
  } catch (error) {
    throw openAIModelError(error, signal);
  }
  if (signal?.aborted) throw abortedTurn(OPENAI_PROVIDER, signal);
}
