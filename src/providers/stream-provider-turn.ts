import type { CancelledError, ModelError } from '../errors.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import { abortedTurn } from './provider-errors.js';

/** How one adapter opens its stream, reads its events, and names its failures. */
export interface ProviderTurnSource<Event> {
  /** Stamped on the `CancelledError` of an aborted turn. */
  readonly provider: string;
  /** Sends the request; settles with the SDK's stream once the response has started. */
  readonly open: () => PromiseLike<AsyncIterable<Event>>;
  /** The deltas one wire event stands for; throws a `ModelError` for a failure event. */
  readonly translate: (event: Event) => Iterable<ToolCallDelta>;
  /** Deltas owed once the wire stream has ended (held call ends, the finish); may throw. */
  readonly end?: () => Iterable<ToolCallDelta>;
  /** The adapter's mapping of what the SDK threw. */
  readonly toError: (
    error: unknown,
    signal: AbortSignal | undefined,
  ) => ModelError | CancelledError;
  readonly signal: AbortSignal | undefined;
}

/**
 * Streams one provider turn as deltas, with the failure rules every adapter shares. Whatever the
 * SDK throws (opening the request or mid-stream) goes through `toError`. An abort mid-stream ends
 * the SDKs' `for await` silently, as if the response were over, so the signal is checked once
 * more after the loop: a cancelled turn always rejects with `CancelledError`, never ends quietly
 * with half a response.
 *
 * Breaking out of the iteration early closes the SDK stream, which aborts the HTTP request.
 */
export async function* streamProviderTurn<Event>(
  source: ProviderTurnSource<Event>,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const { provider, signal } = source;
  if (signal?.aborted) throw abortedTurn(provider, signal);
  try {
    const events = await source.open();
    for await (const event of events) yield* source.translate(event);
  } catch (error) {
    throw source.toError(error, signal);
  }
  if (signal?.aborted) throw abortedTurn(provider, signal);
  if (source.end !== undefined) yield* source.end();
}
