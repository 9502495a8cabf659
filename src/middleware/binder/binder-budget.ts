import { AbortLink, cancellationOf } from '../../cancellation.js';

/** How a binder hop ended, seen from the middleware. */
export type BudgetOutcome =
  | { readonly type: 'returned'; readonly response: unknown }
  | { readonly type: 'threw'; readonly error: unknown }
  /** The budget ran out first; whatever the binder does later is ignored. */
  | { readonly type: 'overran' };

/**
 * Arms a one-shot timer that calls `callback` after `ms` and returns the function that disarms it.
 * The binder's budget timer, injectable for tests (fake timers or a hand-fired callback).
 */
export type BudgetTimer = (callback: () => void, ms: number) => () => void;

/**
 * The default budget timer. `setTimeout` is looked up on each call, so fake timers installed after
 * the middleware was built still drive it.
 */
export const setTimeoutTimer: BudgetTimer = (callback, ms) => {
  const handle = setTimeout(callback, ms);
  return () => clearTimeout(handle);
};

export interface BudgetOptions {
  readonly timeoutMs: number;
  readonly timer: BudgetTimer;
  /** The call's signal: the turn being cancelled aborts the hop and rejects with CancelledError. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs one binder hop under a hard budget. The hop gets a signal that aborts when the budget runs
 * out (reason: a `TimeoutError` DOMException, like `AbortSignal.timeout`) or the turn is cancelled,
 * and the middleware stops waiting at that moment even if the binder ignores its signal: the
 * budget is a race, not a request. Exactly one of the three endings settles the promise; the
 * budget timer is disarmed as soon as the hop ends.
 */
export function runWithinBudget(
  invoke: (signal: AbortSignal) => unknown,
  options: BudgetOptions,
): Promise<BudgetOutcome> {
  const callSignal = options.signal;
  if (callSignal?.aborted) return Promise.reject(cancellationOf(callSignal.reason));
  return new Promise<BudgetOutcome>((resolve, reject) => {
    // The first ending wins; later ones (a binder answering after the budget) are ignored.
    let ended = false;
    function end(settle: () => void): void {
      if (ended) return;
      ended = true;
      disarm();
      hop.dispose();
      settle();
    }
    // The hop's signal follows the call's (with the same reason, for the binder); a cancelled turn
    // ends the hop with its cancellation.
    const hop = new AbortLink(callSignal, {
      reasonOf: (reason) => reason,
      onAbort: (reason) => end(() => reject(cancellationOf(reason))),
    });
    function onBudgetSpent(): void {
      if (ended) return;
      end(() => resolve({ type: 'overran' }));
      hop.abort(new DOMException(`binder hop exceeded ${options.timeoutMs} ms`, 'TimeoutError'));
    }
    const disarm = options.timer(onBudgetSpent, options.timeoutMs);
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(invoke(hop.signal));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => end(() => resolve({ type: 'returned', response })),
      (error: unknown) => end(() => resolve({ type: 'threw', error })),
    );
  });
}
