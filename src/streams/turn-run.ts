import { AbortLink, turnCancellationOf } from '../cancellation.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { CancelledError, InvalidOptionError } from '../errors.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { type CallPlan, planCall } from './call-plan.js';
import { GracefulStop, interruptGraceOf } from './graceful-stop.js';
import { LaneScheduler } from './lane-scheduler.js';
import { Resequencer } from './resequencer.js';
import { type SettlesCalls, TurnDispatch } from './turn-dispatch.js';
import {
  ARRIVES_LATER,
  type CallPuller,
  type CallSource,
  DEFAULT_MAX_CONCURRENT_TOOLS,
  type DispatchTurnOptions,
  isFatalFailure,
  type StartGate,
} from './turn-options.js';

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
}

/**
 * One turn's calls flowing through a bounded, safety-aware fan-out, with results re-sequenced into
 * planner order. Calls are pulled from the source only when there is room for them, so a long
 * source is never buffered whole.
 */
export class TurnRun implements CallPuller, SettlesCalls {
  private readonly registry: ToolRegistry;
  private readonly source: CallSource;
  private readonly backlog: (() => number) | undefined;
  /** Hands the turn's calls to the dispatcher. */
  private readonly calls: TurnDispatch;
  /** Which waiting calls may start: the bound, the lanes, the barrier, the gate. */
  private readonly lanes: LaneScheduler;
  /** How many pulled-but-waiting calls may pile up behind conflicts before pulling stops. */
  private readonly maxWaiting: number;
  private readonly maxHeld: number;
  private readonly fatal: ((result: ToolCallResult) => boolean) | null;
  /** Results back in planner order. */
  private readonly results: Resequencer;
  /**
   * The turn's own signal, followed by every call it starts: it aborts with the caller's signal,
   * a fatal sibling failure or `cancel()`. Null when nothing can cancel the turn. Disposed when
   * the turn completes, so the caller's signal keeps no listener.
   */
  private readonly link: AbortLink | null;
  /** Follows the caller's graceful stop (`interrupt`); null without one. Disposed with the turn. */
  private readonly gracefulStop: GracefulStop | null = null;
  /** The turn's link aborted: running calls saw it. */
  private cancelled = false;
  /** Emit order the next pulled call gets. */
  private pulled = 0;
  private sourceDone = false;
  private sourceError: { error: unknown } | null = null;
  /** Pulling stopped for want of room: a settled call or `resume()` starts it again. */
  private waitingForRoom = false;
  /** `schedule()` is running (a call that settled at once asked for it again: `rescheduled`). */
  private scheduling = false;
  private rescheduled = false;
  /** Holds back calls it does not let start early, until `release()`; null once released. */
  private gate: StartGate | null;
  /** Every result went out (with `sourceError`, if the source failed). */
  private ended = false;
  /** Told once when the turn ends; `done` adds its own promise to it. */
  private onEnd: ((failure?: { error: unknown }) => void) | undefined;
  private donePromise: Promise<void> | undefined;

  constructor({
    turn: options,
    source,
    deliver,
    backlog,
    gate,
    cancellable = false,
    onEnd,
  }: TurnRunOptions) {
    this.source = source;
    this.backlog = backlog;
    this.onEnd = onEnd;
    this.gate = gate ?? null;
    this.registry = options.dispatcher.registry;
    this.results = new Resequencer(deliver);
    const max = options.maxConcurrentTools ?? DEFAULT_MAX_CONCURRENT_TOOLS;
    if (!Number.isInteger(max) || max < 1) {
      throw new InvalidOptionError(
        'maxConcurrentTools',
        `maxConcurrentTools must be an integer ≥ 1; got ${String(max)}`,
      );
    }
    this.lanes = new LaneScheduler({
      maxInFlight: max,
      gateClosed: gate !== undefined,
      start: (plan) => this.start(plan),
    });
    this.maxWaiting = Math.max(16, max * 4);
    this.maxHeld = options.maxHeldResults ?? 10_000;
    const cancelSiblings = options.cancelSiblingsOnFailure ?? false;
    this.fatal =
      cancelSiblings === false ? null : cancelSiblings === true ? isFatalFailure : cancelSiblings;
    this.link =
      options.signal !== undefined ||
      this.fatal !== null ||
      cancellable ||
      options.interrupt !== undefined
        ? new AbortLink(options.signal, {
            reasonOf: turnCancellationOf,
            onAbort: (reason) => this.stop(reason as CancelledError),
          })
        : null;
    this.calls = new TurnDispatch({
      turn: options,
      maxConcurrentTools: max,
      signal: this.link?.signal,
    });
    const graceMs = interruptGraceOf(options.interruptGraceMs);
    if (options.interrupt !== undefined) {
      this.gracefulStop = new GracefulStop({
        interrupt: options.interrupt,
        graceMs,
        onInterrupt: (reason) => this.drain(reason),
        onGraceSpent: (reason) => this.stop(reason),
      });
    }
    this.pull();
  }

  /**
   * Settles once every result went out; rejects with the call source's failure. Made on first
   * use: `dispatchTurn` is told through `onEnd` and needs no promise of its own.
   */
  get done(): Promise<void> {
    this.donePromise ??= new Promise<void>((resolve, reject) => {
      const settle = (failure?: { error: unknown }) =>
        failure === undefined ? resolve() : reject(failure.error);
      if (this.ended) {
        settle(this.sourceError ?? undefined);
        return;
      }
      const told = this.onEnd;
      this.onEnd = (failure) => {
        told?.(failure);
        settle(failure);
      };
    });
    return this.donePromise;
  }

  /**
   * Pulls calls while there is room, synchronously while the source answers at once (an array
   * costs no promise). It stops to wait for a call the source has not produced yet, or for room.
   */
  private pull(): void {
    try {
      while (!this.sourceDone) {
        if (!this.hasRoom()) {
          this.waitingForRoom = true;
          return;
        }
        const next = this.source.next(this);
        if (next === ARRIVES_LATER) return;
        if (next instanceof Promise) {
          next.then(
            (call) => this.arrived(call),
            (error: unknown) => this.sourceFailed(error),
          );
          return;
        }
        this.take(next);
      }
    } catch (error) {
      this.sourceFailed(error);
      return;
    }
    this.schedule();
    this.settleIfComplete();
  }

  /** A call (or the end: undefined) the source produced later (a promise's, or handed over). */
  arrived(call: ProposedCall | undefined): void {
    try {
      this.take(call);
    } catch (error) {
      this.sourceFailed(error);
      return;
    }
    this.pull();
  }

  /** Takes what the source gave: a call, or (undefined) the end. */
  private take(call: ProposedCall | undefined): void {
    if (call === undefined) this.sourceDone = true;
    else this.accept(call);
  }

  private sourceFailed(error: unknown): void {
    this.sourceDone = true;
    this.sourceError = { error };
    this.schedule();
    this.settleIfComplete();
  }

  /** The completion rule's counterpart for pulling: room to start, or to look past a conflict. */
  private hasRoom(): boolean {
    return (
      this.lanes.waiting.length < this.maxWaiting &&
      this.results.size < this.maxHeld &&
      (this.backlog === undefined || this.backlog() < this.maxWaiting)
    );
  }

  /** Lets pulling go on after the consumer took results it had fallen behind on. */
  resume(): void {
    this.wake();
  }

  /** Lets gated calls start: whatever held them back has happened. */
  release(): void {
    if (this.gate === null) return;
    this.gate = null;
    this.lanes.gateClosed = false;
    this.schedule();
  }

  private accept(raw: ProposedCall): void {
    const emitOrder = this.pulled;
    this.pulled += 1;
    this.lanes.waiting.push(planCall(raw, { emitOrder, registry: this.registry, gate: this.gate }));
    this.schedule();
  }

  /**
   * Starts every waiting call that may start, in planner order. A call that settles at once
   * (during `start`) asks for another pass instead of re-entering the loop.
   */
  private schedule(): void {
    if (this.scheduling) {
      this.rescheduled = true;
      return;
    }
    this.scheduling = true;
    try {
      do {
        this.rescheduled = false;
        this.lanes.pass();
      } while (this.rescheduled);
    } finally {
      this.scheduling = false;
    }
  }

  private start(plan: CallPlan): void {
    this.calls.dispatch(plan, this);
  }

  /** A started call's one result. */
  settle(plan: CallPlan, result: ToolCallResult): void {
    this.lanes.settled(plan);
    if (this.fatal !== null && !this.lanes.stopped && this.fatal(result)) {
      this.stop(
        new CancelledError(
          `cancelled because a sibling call failed: ${result.toolName} (${result.toolCallId})`,
        ),
      );
    }
    this.results.settle(plan.emitOrder, result);
    this.schedule();
    this.wake();
    this.settleIfComplete();
  }

  /** Cancels the turn: running calls see their signal abort, waiting ones never start. */
  cancel(reason: unknown): void {
    this.stop(turnCancellationOf(reason));
  }

  /** Nothing more runs: the turn signal aborted, a sibling failed fatally, or `cancel()`. */
  private stop(reason: CancelledError): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.lanes.stopped = true;
    this.link?.abort(reason);
    this.schedule();
  }

  /**
   * A graceful stop: nothing more starts (waiting calls are answered `cancelled` without running);
   * running calls go on until the grace is spent (`GracefulStop`), then the turn is cancelled.
   */
  private drain(reason: CancelledError): void {
    if (this.lanes.stopped) return;
    this.lanes.stopped = true;
    this.calls.stopStarting(reason);
    this.schedule();
    this.settleIfComplete();
  }

  /** Pulling goes on, in a microtask (never inside the settling call's stack), if it waited for room. */
  private wake(): void {
    if (!this.waitingForRoom) return;
    this.waitingForRoom = false;
    queueMicrotask(() => this.pull());
  }

  /** The completion rule: the source is drained, nothing waits, nothing runs, all delivered. */
  private settleIfComplete(): void {
    if (!this.sourceDone || this.lanes.waiting.length > 0 || this.lanes.inFlight > 0) return;
    if (this.results.delivered !== this.pulled) return;
    if (this.ended) return;
    this.ended = true;
    this.link?.dispose();
    this.gracefulStop?.dispose();
    this.onEnd?.(this.sourceError ?? undefined);
  }
}
