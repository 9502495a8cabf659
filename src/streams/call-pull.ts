// Exists so TurnRun keeps to scheduling and settling: this is the source side, pulling calls only while there is room.
import type { ProposedCall } from '../dispatch/proposed-call.js';
import { ARRIVES_LATER, type CallPuller, type CallSource } from './turn-options.js';

/** What pulling asks of the turn it feeds. */
export interface PullTarget {
  /** The completion rule's counterpart for pulling: room to start, or to look past a conflict. */
  hasRoom(): boolean;
  /** Takes a pulled call. */
  accept(call: ProposedCall): void;
  /** Pulling paused or the source ended (or failed): start what may start, end if complete. */
  pulled(): void;
}

/**
 * Pulls a turn's calls from its source while there is room, so a long source is never buffered
 * whole: synchronously while the source answers at once, waiting for a call the source has not
 * produced yet, or for room (`wake()`).
 */
export class CallPull implements CallPuller {
  private readonly source: CallSource;
  private readonly target: PullTarget;
  /** The source gave its last call, or failed. */
  sourceDone = false;
  sourceError: { error: unknown } | null = null;
  /** Pulling stopped for want of room: a settled call or `resume()` starts it again. */
  private waitingForRoom = false;

  constructor(source: CallSource, target: PullTarget) {
    this.source = source;
    this.target = target;
  }

  /**
   * Pulls calls while there is room, synchronously while the source answers at once (an array
   * costs no promise). It stops to wait for a call the source has not produced yet, or for room.
   */
  pull(): void {
    try {
      while (!this.sourceDone) {
        if (!this.target.hasRoom()) {
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
    this.target.pulled();
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
    else this.target.accept(call);
  }

  private sourceFailed(error: unknown): void {
    this.sourceDone = true;
    this.sourceError = { error };
    this.target.pulled();
  }

  /** Pulling goes on, in a microtask (never inside the settling call's stack), if it waited for room. */
  wake(): void {
    if (!this.waitingForRoom) return;
    this.waitingForRoom = false;
    queueMicrotask(() => this.pull());
  }
}
