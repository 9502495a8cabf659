import type { CallJournal } from '../dispatch/call-journal.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import { isRecoverable, toWireCategory } from '../dispatch/error-taxonomy.js';
import type { ExecutionPolicy } from '../dispatch/execution-policy.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
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
