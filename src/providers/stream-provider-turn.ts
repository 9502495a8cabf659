import { AbortLink } from '../cancellation.js';
import type { CancelledError, ModelError } from '../errors.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import { abortedTurn, modelError } from './provider-errors.js';

/**
 * How long an adapter waits for the next stream event, by default, before it abandons the stream:
 * ten minutes, what the SDKs allow a response to take to start.
 */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 600_000;

/** How one adapter opens its stream, reads its events, and names its failures. */
export interface ProviderTurnSource<Event> {
  /** Stamped on the `CancelledError` of an aborted turn. */
  readonly provider: string;
  /**
   * Sends the request with `signal` (the turn's, which also aborts when the stream stalls);
   * settles with the SDK's stream once the response has started.
   */
  readonly open: (signal: AbortSignal) => PromiseLike<AsyncIterable<Event>>;
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
  /**
   * Longest wait for the next event once the response has started; undefined for no limit. The
   * time the consumer spends on the deltas does not count.
   */
  readonly idleTimeoutMs: number | undefined;
}

/**
 * Streams one provider turn as deltas, with the failure rules every adapter shares. Whatever the
 * SDK throws (opening the request or mid-stream) goes through `toError`. An abort mid-stream ends
 * the SDKs' `for await` silently, as if the response were over, so the signal is checked once
 * more after the loop: a cancelled turn always rejects with `CancelledError`, never ends quietly
 * with half a response. A stream that sends nothing for `idleTimeoutMs` is aborted and the turn
 * rejects with a retryable `ModelError` of category `timeout`: the SDKs time a response only
 * until it starts, so a stalled stream would otherwise hang the turn for good.
 *
 * Breaking out of the iteration early closes the SDK stream, which aborts the HTTP request.
 */
export async function* streamProviderTurn<Event>(
  source: ProviderTurnSource<Event>,
): AsyncGenerator<ToolCallDelta, void, undefined> {
  const { provider, signal } = source;
  if (signal?.aborted) throw abortedTurn(provider, signal);
  const link = new AbortLink(signal);
  const watchdog = new StallWatchdog(source.idleTimeoutMs, () => link.abort());
  const stalled = () =>
    modelError(
      provider,
      `the stream sent nothing for ${source.idleTimeoutMs} ms (idleTimeoutMs) and was abandoned`,
      'timeout',
      undefined,
    );
  let events: AsyncIterator<Event> | undefined;
  let finished = false;
  try {
    events = (await source.open(link.signal))[Symbol.asyncIterator]();
    for (;;) {
      watchdog.waiting();
      const next = await events.next();
      watchdog.received();
      if (next.done === true) break;
      yield* source.translate(next.value);
    }
    finished = true;
  } catch (error) {
    if (watchdog.fired && !signal?.aborted) throw stalled();
    throw source.toError(error, signal);
  } finally {
    watchdog.stop();
    link.dispose();
    // A failure event or a consumer that stopped early: close the SDK stream, which aborts the
    // request. Whatever closing throws must not hide why the turn ended.
    if (!finished) await events?.return?.().catch(() => undefined);
  }
  if (signal?.aborted) throw abortedTurn(provider, signal);
  if (watchdog.fired) throw stalled();
  if (source.end !== undefined) yield* source.end();
}

/** Node's longest timer; a longer limit is no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Fires when a wait for the next event lasts `limitMs`. One timer for the whole stream,
 * re-armed with `refresh()`, so an event costs no timer of its own.
 */
class StallWatchdog {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #waiting = false;
  fired = false;

  constructor(
    private readonly limitMs: number | undefined,
    private readonly onStall: () => void,
  ) {}

  waiting(): void {
    if (this.limitMs === undefined || this.limitMs > MAX_TIMER_MS) return;
    this.#waiting = true;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#expired(), this.limitMs);
      this.#timer.unref?.();
    } else {
      this.#timer.refresh();
    }
  }

  received(): void {
    this.#waiting = false;
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#waiting = false;
  }

  #expired(): void {
    // The timer outlives a wait it was armed for; it only counts while a wait is on.
    if (!this.#waiting) return;
    this.fired = true;
    this.onStall();
  }
}
