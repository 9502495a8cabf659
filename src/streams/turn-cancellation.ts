import { CancelledError } from '../errors.js';

/** The reason siblings of a fatal failure are cancelled with. */
export const SIBLING_FAILED = 'cancelled because a sibling call failed';

/** The `CancelledError` a turn's calls see when its signal aborts with `reason`. */
export function cancellation(reason: unknown): CancelledError {
  if (CancelledError.isInstance(reason)) return reason;
  return new CancelledError(
    reason instanceof Error ? reason.message : 'the turn was cancelled',
    reason,
  );
}
