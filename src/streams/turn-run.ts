import { AbortLink, turnCancellationOf } from '../cancellation.js';
import type { ModelTokens } from '../dispatch/model-token-share.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { CancelledError } from '../errors.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { type CallPlan, planCall } from './call-plan.js';
import { CallPull } from './call-pull.js';
import { GracefulStop, interruptGraceOf } from './graceful-stop.js';
import { LaneScheduler } from './lane-scheduler.js';
import { Resequencer } from './resequencer.js';
import { type SettlesCalls, TurnDispatch } from './turn-dispatch.js';
import {
  type CallPuller,
  fatalRuleOf,
  maxConcurrentOf,
  type StartGate,
  type TurnRunOptions,
} from './turn-options.js';

export type { TurnRunOptions } from './turn-options.js';

/**
 * One turn's calls flowing through a bounded, safety-aware fan-out, with results re-sequenced into
 * planner order. Calls are pulled from the source only when there is room for them, so a long
 * source is never buffered whole.
 */
export class TurnRun implements CallPuller, SettlesCalls {
  private readonly registry: ToolRegistry;
  /** Pulls the turn's calls from its source while there is room. */
  private readonly intake: CallPull;
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
    modelTokens,
  }: TurnRunOptions) {
    this.intake = new CallPull(source, {
      hasRoom: () => this.hasRoom(),
      accept: (call) => this.accept(call),
      pulled: () => {
        this.schedule();
        this.settleIfComplete();
      },
    });
    this.backlog = backlog;
    this.onEnd = onEnd;
    this.gate = gate ?? null;
    this.registry = options.dispatcher.registry;
    this.results = new Resequencer(deliver);
    const max = maxConcurrentOf(options);
    this.lanes = new LaneScheduler({
      maxInFlight: max,
      gateClosed: gate !== undefined,
      start: (plan) => this.start(plan),
    });
    this.maxWaiting = Math.max(16, max * 4);
    this.maxHeld = options.maxHeldResults ?? 10_000;
    this.fatal = fatalRuleOf(options);
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
      modelTokens,
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
    this.intake.pull();
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
        settle(this.intake.sourceError ?? undefined);
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

  /** A call (or the end: undefined) the source produced later (a promise's, or handed over). */
  arrived(call: ProposedCall | undefined): void {
    this.intake.arrived(call);
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
    this.intake.wake();
  }

  /**
   * Calls dispatched from now on carry their share of the model turn's tokens (a streamed turn
   * whose response ended: its usage and its number of calls are known).
   */
  shareModelTokens(shareOf: (emitOrder: number) => ModelTokens): void {
    this.calls.shareModelTokens(shareOf);
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
    this.intake.wake();
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

  /** The completion rule: the source is drained, nothing waits, nothing runs, all delivered. */
  private settleIfComplete(): void {
    if (!this.intake.sourceDone || this.lanes.waiting.length > 0 || this.lanes.inFlight > 0) return;
    if (this.results.delivered !== this.pulled) return;
    if (this.ended) return;
    this.ended = true;
    this.link?.dispose();
    this.gracefulStop?.dispose();
    this.onEnd?.(this.intake.sourceError ?? undefined);
  }
}
