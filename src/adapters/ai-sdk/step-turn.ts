import { Subject } from 'rxjs';
import { AbortLink } from '../../cancellation.js';
import type { ProposedCall } from '../../dispatch/proposed-call.js';
import type { ToolCallResult } from '../../dispatch/result.js';
import { dispatchCalls } from '../../streams/dispatch-calls.js';
import type { DispatchTurnOptions } from '../../streams/turn-options.js';

/**
 * The calls of one framework step, dispatched as one Switchyard turn. The framework hands calls
 * over one at a time (each tool's `execute`); they join an open turn in the order they arrive, so
 * the turn's bound, lanes, planner order and sibling cancellation span the whole step.
 */
export class StepTurn {
  readonly #calls = new Subject<ProposedCall>();
  readonly #waiting = new Map<string, (result: ToolCallResult) => void>();
  /** The turn's own signal: it aborts when any framework signal of the step does. */
  readonly #turn = new AbortLink(undefined);
  /**
   * The framework signals the turn follows (the AI SDK hands every call of a step the same one),
   * unlinked whenever no call waits, so a long-lived signal keeps no listener of ours.
   */
  readonly #links = new Map<AbortSignal, AbortLink>();

  constructor(options: Omit<DispatchTurnOptions, 'signal'>) {
    this.#calls
      .pipe(dispatchCalls({ ...options, signal: this.#turn.signal }))
      .subscribe((result) => {
        const settle = this.#waiting.get(result.toolCallId);
        this.#waiting.delete(result.toolCallId);
        if (this.#waiting.size === 0) this.#unlink();
        settle?.(result);
      });
  }

  /**
   * Adds a call to the turn and resolves to its one result. `signal` is the framework's abort for
   * this call: the framework aborts every call of a step together, so it cancels the turn.
   */
  dispatch(
    call: ProposedCall & { readonly id: string },
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    const result = new Promise<ToolCallResult>((resolve) => this.#waiting.set(call.id, resolve));
    if (signal !== undefined) this.#cancelWith(signal);
    this.#calls.next(call);
    return result;
  }

  #cancelWith(signal: AbortSignal): void {
    if (this.#links.has(signal)) return;
    const turn = this.#turn;
    this.#links.set(
      signal,
      new AbortLink(signal, {
        reasonOf: (reason) => reason,
        onAbort: (reason) => turn.abort(reason),
      }),
    );
  }

  #unlink(): void {
    for (const link of this.#links.values()) link.dispose();
    this.#links.clear();
  }
}
