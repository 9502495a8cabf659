import { AbortLink, turnCancellationOf } from '../cancellation.js';
import { type CancelledError, InvalidOptionError } from '../errors.js';
import { DEFAULT_INTERRUPT_GRACE_MS } from './turn-options.js';

/**
 * `interruptGraceMs` checked: a number ≥ 0, the default when absent. Checked whether or not the
 * turn has an `interrupt`, so a bad option fails where it is written.
 * @throws InvalidOptionError for a grace that is not a number ≥ 0.
 */
export function interruptGraceOf(graceMs: number = DEFAULT_INTERRUPT_GRACE_MS): number {
  if (!Number.isFinite(graceMs) || graceMs < 0) {
    throw new InvalidOptionError(
      'interruptGraceMs',
      `interruptGraceMs must be a number ≥ 0; got ${String(graceMs)}`,
    );
  }
  return graceMs;
}

/**
 * A turn's graceful stop: follows the caller's `interrupt` signal; when it aborts, `onInterrupt`
 * (the turn stops starting calls), and once `graceMs` more have passed, `onGraceSpent` (the turn
 * cancels what still runs). `dispose()` when the turn ends: no listener or timer is left.
 */
export class GracefulStop {
  readonly #link: AbortLink;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `graceMs` as `interruptGraceOf` returns it. */
  constructor(handlers: {
    readonly interrupt: AbortSignal;
    readonly graceMs: number;
    readonly onInterrupt: (reason: CancelledError) => void;
    readonly onGraceSpent: (reason: CancelledError) => void;
  }) {
    const { interrupt, graceMs } = handlers;
    this.#link = new AbortLink(interrupt, {
      reasonOf: (reason) => turnCancellationOf(reason, 'the run was interrupted'),
      onAbort: (reason) => {
        this.#timer = setTimeout(() => handlers.onGraceSpent(reason as CancelledError), graceMs);
        handlers.onInterrupt(reason as CancelledError);
      },
    });
  }

  dispose(): void {
    this.#link.dispose();
    clearTimeout(this.#timer);
  }
}
