import type { OperatorFunction } from 'rxjs';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { CancelledError } from '../errors.js';
import { rx } from '../rxjs.js';
import { AsyncQueue } from './async-queue.js';
import type { DispatchTurnOptions } from './turn-options.js';
import { TurnRun } from './turn-run.js';

/**
 * An RxJS operator for calls that arrive over time (a model still streaming its turn): each call
 * is dispatched under the same bound and scheduling rules as `dispatchTurn`, and results are
 * emitted in planner order, each as soon as every earlier one is ready. Calls that arrive faster
 * than they can run wait in an O(1) queue, never in `mergeMap`'s array buffer.
 *
 * Unsubscribing cancels the turn: running calls see their signal abort.
 *
 * @example
 * calls$.pipe(dispatchCalls({ dispatcher, maxConcurrentTools: 4 })).subscribe(sendToModel);
 */
export function dispatchCalls(
  options: DispatchTurnOptions,
): OperatorFunction<ProposedCall, ToolCallResult> {
  return (calls$) =>
    new (rx().Observable)<ToolCallResult>((subscriber) => {
      const pending = new AsyncQueue<ProposedCall>();
      const run = new TurnRun({
        turn: options,
        source: pending,
        deliver: (result) => subscriber.next(result),
        cancellable: true,
      });
      run.done.then(
        () => subscriber.complete(),
        (error: unknown) => subscriber.error(error),
      );
      const subscription = calls$.subscribe({
        next: (call) => pending.push(call),
        error: (error: unknown) => pending.end({ error }),
        complete: () => pending.end(),
      });
      return () => {
        subscription.unsubscribe();
        run.cancel(new CancelledError('the turn was cancelled: its subscriber unsubscribed'));
        pending.end();
      };
    });
}
