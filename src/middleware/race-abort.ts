import { cancellationOf } from '../cancellation.js';

/**
 * What to throw when a call's signal aborts (`cancellationOf` its reason): a timeout stays a
 * `ToolTimeoutError` (a hard `withTimeout` above aborted it), anything else is a `CancelledError`.
 */
export function abortError(signal: AbortSignal): Error {
  return cancellationOf(signal.reason);
}

/**
 * Settles with `promise`, or rejects with `abortError(signal)` as soon as the signal aborts,
 * whichever comes first. The listener is removed once either happens.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
