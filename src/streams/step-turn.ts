import { AbortLink } from '../cancellation.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { PushSource } from './push-source.js';
import type { DispatchTurnOptions } from './turn-options.js';
import { TurnRun } from './turn-run.js';

/**
 * The calls of one framework step, dispatched as one Switchyard turn. The framework hands calls
 * over one at a time (each tool's `execute`); they join an open turn in the order they arrive, so
 * the turn's bound, lanes, planner order and sibling cancellation span the whole step.
 *
 * The turn runs straight on the turn engine rather than through the `dispatchCalls` operator:
 * that operator loads RxJS and always makes its turn cancellable, an `AbortController` per turn.
 * A step whose framework passes no signal needs neither.
 */
export class StepTurn {
  readonly #options: Omit<DispatchTurnOptions, 'signal'>;
  readonly #calls = new PushSource();
  readonly #waiting = new Map<string, (result: ToolCallResult) => void>();
  readonly #run: TurnRun;
  /** The turn was begun with a framework signal: it follows every one linked to it. */
  readonly #followsSignals: boolean;
  /**
   * The framework signals the turn follows (the frameworks hand every call of a step the same one),
   * unlinked whenever no call waits, so a long-lived signal keeps no listener of ours.
   */
  readonly #links = new Map<AbortSignal, AbortLink>();
  /** Calls that bring a signal to a turn begun without one: a turn of their own per signal. */
  #signalled: WeakMap<AbortSignal, StepTurn> | undefined;
  /** An unlink is queued for when the calls now arriving have been handed over. */
  #unlinkQueued = false;

  /** `signal`: the framework's abort for the step's calls, as the first call brings it. */
  constructor(options: Omit<DispatchTurnOptions, 'signal'>, signal?: AbortSignal) {
    this.#options = options;
    this.#followsSignals = signal !== undefined;
    // A turn that follows signals is cancelled through `cancel()`: its own abort is the only
    // `AbortController` of the step.
    this.#run = new TurnRun({
      turn: options,
      source: this.#calls,
      deliver: (result) => {
        const settle = this.#waiting.get(result.toolCallId);
        this.#waiting.delete(result.toolCallId);
        if (this.#waiting.size === 0) this.#unlinkWhenIdle();
        settle?.(result);
      },
      cancellable: this.#followsSignals,
    });
    if (signal !== undefined) this.#cancelWith(signal);
  }

  /**
   * Adds a call to the turn and resolves to its one result. `signal` is the framework's abort for
   * this call: the framework aborts every call of a step together, so it cancels the turn.
   */
  dispatch(
    call: ProposedCall & { readonly id: string },
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    if (signal !== undefined && !this.#followsSignals) {
      return this.#turnFor(signal).dispatch(call, signal);
    }
    const result = new Promise<ToolCallResult>((resolve) => this.#waiting.set(call.id, resolve));
    if (signal !== undefined) this.#cancelWith(signal);
    this.#calls.push(call);
    return result;
  }

  // Neither framework does this (a step's calls share one signal, or none), but a call's abort
  // must still reach it: it runs in a turn that follows its signal, under the same options.
  #turnFor(signal: AbortSignal): StepTurn {
    this.#signalled ??= new WeakMap();
    let turn = this.#signalled.get(signal);
    if (turn === undefined) {
      turn = new StepTurn(this.#options, signal);
      this.#signalled.set(signal, turn);
    }
    return turn;
  }

  #cancelWith(signal: AbortSignal): void {
    if (!this.#followsSignals || this.#links.has(signal)) return;
    const run = this.#run;
    this.#links.set(
      signal,
      new AbortLink(signal, {
        reasonOf: (reason) => reason,
        onAbort: (reason) => run.cancel(reason),
      }),
    );
  }

  // A framework hands a step's calls over in consecutive microtasks, and a quick tool settles
  // before the next one arrives: unlinking at once would relink the signal for every call. The
  // unlink waits one microtask, behind the calls already on their way, and is dropped when a call
  // waits again by then (its settling queues the next one).
  #unlinkWhenIdle(): void {
    if (this.#unlinkQueued || this.#links.size === 0) return;
    this.#unlinkQueued = true;
    queueMicrotask(() => {
      this.#unlinkQueued = false;
      if (this.#waiting.size > 0) return;
      for (const link of this.#links.values()) link.dispose();
      this.#links.clear();
    });
  }
}
