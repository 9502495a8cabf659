import type { CallJournal } from '../dispatch/call-journal.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import { isRecoverable, toWireCategory } from '../dispatch/error-taxonomy.js';
import type { ExecutionPolicy } from '../dispatch/execution-policy.js';
import type { ModelTokens } from '../dispatch/model-token-share.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { InvalidOptionError } from '../errors.js';
import type { AnyTool } from '../tools/tool-registry.js';

/** Tool calls in flight per turn unless told otherwise. */
export const DEFAULT_MAX_CONCURRENT_TOOLS = 8;

/** How long running calls may finish after a graceful interrupt, unless told otherwise. */
export const DEFAULT_INTERRUPT_GRACE_MS = 30_000;

/** Options shared by `dispatchTurn`, `streamTurn` and the `dispatchCalls` operator. */
export interface DispatchTurnOptions {
  readonly dispatcher: Dispatcher;
  /** Calls in flight at once (1 = serial). Default 8. */
  readonly maxConcurrentTools?: number;
  /** Cancels the turn: queued calls resolve `cancelled` without running; running ones see it. */
  readonly signal?: AbortSignal;
  /**
   * Stops the turn gracefully (a first Ctrl-C): when it aborts, no further call starts (each
   * resolves `cancelled` without running) while the calls already running go on, for up to
   * `interruptGraceMs`, and then see their signal abort. `signal` still stops everything at once.
   */
  readonly interrupt?: AbortSignal;
  /** How long running calls may finish after `interrupt` aborts, ms. Default 30 000. */
  readonly interruptGraceMs?: number;
  /**
   * Cancel the siblings when a call fails fatally: running calls see their signal abort, queued
   * calls never start; each still yields a `cancelled` result. `true` treats as fatal any failure
   * the model cannot fix by correcting its arguments (see `isFatalFailure`); a function decides
   * itself. Default false.
   */
  readonly cancelSiblingsOnFailure?: boolean | ((result: ToolCallResult) => boolean);
  /** Facts stamped on every call of the turn. */
  readonly turn?: {
    readonly iteration?: number;
    readonly sessionId?: string;
    readonly runId?: string | null;
    readonly model?: string | null;
    readonly provider?: string | null;
  };
  /** Tools the model was shown this turn. Default: every tool that is not deferred. */
  readonly advertised?: ReadonlySet<string>;
  /** Narrows the dispatcher's execution policy for this turn. */
  readonly policy?: ExecutionPolicy;
  /**
   * Handed, instead of the dispatcher's `context`, to the turn's tools that list `context` in
   * `injected` (an embedding framework's view of the step, a request's own values). Tools on
   * worker threads receive a structured clone of it. Default: the dispatcher's.
   */
  readonly context?: unknown;
  /**
   * The run's journal (`openRunJournal` from `switchyard/journal`): each call that may have side
   * effects is recorded before it starts and after it ends, where it reaches its executor, and a
   * call an earlier run completed returns its recorded result instead of running again. A run
   * journal recognises a turn's calls by their ids (unique in the run, as providers' are).
   * Default none.
   */
  readonly journal?: CallJournal;
  /**
   * Most settled results held back while an earlier call still runs. Past it no new call starts
   * until the earliest one settles, so memory stays bounded however slow one call is. Default 10 000.
   */
  readonly maxHeldResults?: number;
}

/** A failure the model cannot repair by calling again with corrected arguments. */
export function isFatalFailure(result: ToolCallResult): boolean {
  if (result.ok || result.status === 'cancelled') return false;
  const category = toWireCategory(result.errorCategory);
  return category === null || !isRecoverable(category);
}

/** `maxConcurrentTools`, checked: an integer ≥ 1 (default `DEFAULT_MAX_CONCURRENT_TOOLS`). */
export function maxConcurrentOf(options: DispatchTurnOptions): number {
  const max = options.maxConcurrentTools ?? DEFAULT_MAX_CONCURRENT_TOOLS;
  if (!Number.isInteger(max) || max < 1) {
    throw new InvalidOptionError(
      'maxConcurrentTools',
      `maxConcurrentTools must be an integer ≥ 1; got ${String(max)}`,
    );
  }
  return max;
}

/** Which failures cancel the siblings (`cancelSiblingsOnFailure`); null: none does. */
export function fatalRuleOf(
  options: DispatchTurnOptions,
): ((result: ToolCallResult) => boolean) | null {
  const cancelSiblings = options.cancelSiblingsOnFailure ?? false;
  return cancelSiblings === false
    ? null
    : cancelSiblings === true
      ? isFatalFailure
      : cancelSiblings;
}

/** A source's answer that it has no call yet and will hand its next one to the puller itself. */
export const ARRIVES_LATER = Symbol('switchyard.arrivesLater');

/** Whoever pulls from a call source: takes a call the source hands over later. */
export interface CallPuller {
  /** The next call, or `undefined`: there are no more. */
  arrived(call: ProposedCall | undefined): void;
}

/** Where calls come from: pulled one at a time, synchronously when it can be. */
export interface CallSource {
  /**
   * The next call, `undefined` when there are no more, or a promise of either. A source that is
   * filled by a producer may instead return `ARRIVES_LATER` and hand the next call (or
   * `undefined`) to `puller.arrived` from the producer's own stack: no promise and no microtask
   * per call.
   */
  next(
    puller: CallPuller,
  ): ProposedCall | undefined | Promise<ProposedCall | undefined> | typeof ARRIVES_LATER;
}

/**
 * Holds back calls that must not start before something happens elsewhere (a streamed turn: the
 * model finishing its response). Calls the gate lets through start as usual; gated calls keep
 * their place in planner order and their resource claims until `TurnRun.release()`.
 */
export interface StartGate {
  /**
   * True when `call` may start before the release. `tool` is the call's tool when the engine
   * already looked it up (null: no such tool), so the gate need not look it up again.
   */
  startsEarly(call: ProposedCall, tool?: AnyTool | null): boolean;
}

/** What a turn run is made of: its options, where its calls come from and where results go. */
export interface TurnRunOptions {
  /** The turn's options, as `dispatchTurn` takes them. */
  readonly turn: DispatchTurnOptions;
  readonly source: CallSource;
  /** Takes each result, in planner order. */
  readonly deliver: (result: ToolCallResult) => void;
  /**
   * How many delivered results the consumer has not taken yet; while it is large, no new call is
   * pulled (call `resume()` when the consumer catches up). Default: the consumer keeps up.
   */
  readonly backlog?: () => number;
  /** Holds back calls it does not let start early, until `release()`. Default: none. */
  readonly gate?: StartGate;
  /** The owner may `cancel()` the turn (a streamed turn whose stream failed, an unsubscribe). Default false. */
  readonly cancellable?: boolean;
  /** Told once when the turn ends, instead of (or besides) awaiting `done`. */
  readonly onEnd?: (failure?: { error: unknown }) => void;
  /** Each call's share of the model turn's tokens, by emit order, when known from the start. */
  readonly modelTokens?: (emitOrder: number) => ModelTokens;
}
