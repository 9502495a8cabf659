import { Subject } from 'rxjs';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { dispatchCalls } from '../streams/dispatch-calls.js';
import type { DispatchTurnOptions } from '../streams/turn-options.js';

/**
 * The calls of one framework step, dispatched as one Switchyard turn. The framework hands calls
 * over one at a time (each tool's `execute`); they join an open turn in the order they arrive, so
 * the turn's bound, lanes, planner order and sibling cancellation span the whole step.
 */
export class StepTurn {
  readonly #calls = new Subject<ProposedCall>();
  readonly #waiting = new Map<string, (result: ToolCallResult) => void>();
  readonly #controller = new AbortController();
  /** Signals already linked to the turn: the AI SDK hands every call of a step the same one. */
  readonly #linked = new WeakSet<AbortSignal>();

  constructor(options: Omit<DispatchTurnOptions, 'signal'>) {
    this.#calls
      .pipe(dispatchCalls({ ...options, signal: this.#controller.signal }))
      .subscribe((result) => {
        const settle = this.#waiting.get(result.toolCallId);
        this.#waiting.delete(result.toolCallId);
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
    if (this.#linked.has(signal)) return;
    this.#linked.add(signal);
    if (signal.aborted) {
      this.#controller.abort(signal.reason);
      return;
    }
    signal.addEventListener('abort', () => this.#controller.abort(signal.reason), { once: true });
  }
}
