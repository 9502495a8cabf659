import { CancelledError, ToolTimeoutError } from './errors.js';

// The one home of cancellation: how signals are linked (a parent, a time limit, an abort of one's
// own) and how an abort reason becomes the error a call or a turn ends with. Every part that
// follows a signal or turns a reason into an error uses this module.

/**
 * The error an abort `reason` means for a tool call. The timeout rule, the only one: a
 * `ToolTimeoutError` (a tool's `timeoutMs` or a hard `withTimeout` spent) stays a timeout; a
 * `CancelledError` stays as it is; anything else (a user's reason, a DOMException, even
 * `AbortSignal.timeout`'s) becomes a `CancelledError` carrying it as its cause, with its message
 * when it is an Error, else `message`.
 */
export function cancellationOf(
  reason: unknown,
  message = 'the tool call was cancelled',
): CancelledError | ToolTimeoutError {
  if (CancelledError.isInstance(reason) || ToolTimeoutError.isInstance(reason)) return reason;
  return new CancelledError(reason instanceof Error ? reason.message : message, reason);
}

/**
 * The error an abort `reason` means for a whole turn (or a model request): always a
 * `CancelledError`. A turn has no time limit of its own, so a tool's timeout that reaches it is a
 * cancellation whose cause is that timeout.
 */
export function turnCancellationOf(
  reason: unknown,
  message = 'the turn was cancelled',
): CancelledError {
  const error = cancellationOf(reason, message);
  return CancelledError.isInstance(error) ? error : new CancelledError(error.message, error);
}

/**
 * True when `error` is a cancellation that must propagate rather than become a tool result: a
 * `CancelledError`, an `AbortError`, or the very reason `signal` aborted with.
 */
export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (CancelledError.isInstance(error)) return true;
  if (error instanceof Error && error.name === 'AbortError') return true;
  return signal?.aborted === true && error === signal.reason;
}

/** Options of `linkSignals`. */
export interface LinkOptions {
  /** Abort after this many ms. Default: no time limit. */
  readonly timeoutMs?: number;
  /** The reason a spent time limit aborts with. Default: a `TimeoutError` DOMException. */
  readonly timeoutReason?: () => unknown;
  /** Arm the time limit only when `armTimeout()` is called (an executor that queues calls). */
  readonly deferTimeout?: boolean;
  /** How a parent's reason becomes the link's. Default `cancellationOf`. */
  readonly reasonOf?: (reason: unknown) => unknown;
  /** Called once when the link aborts, whatever aborted it (not after `dispose()`). */
  readonly onAbort?: (reason: unknown) => void;
}

type Parents = AbortSignal | readonly (AbortSignal | undefined)[] | undefined;

/**
 * Several signals linked into one, with an optional time limit and an abort of its own (the
 * shape of the AI SDK's `mergeAbortSignals`, with a `dispose`). The `AbortController` behind
 * `signal` and the promise behind `whenAborted()` are made only when someone asks for them, so a
 * link nobody reads costs one object. `dispose()` removes every listener it added to a parent and
 * clears its timer: call it when the work is over, and a long-lived signal keeps no listener.
 */
export class AbortLink {
  /** Why the link aborted; undefined while it has not. */
  reason: unknown;
  aborted = false;
  /** True when something can abort the link from outside (a parent or a time limit). */
  readonly abortable: boolean;
  private readonly parents: Parents;
  private readonly options: LinkOptions | undefined;
  private readonly onParentAbort: ((event: Event) => void) | undefined;
  private controller: AbortController | undefined;
  private waiter: Promise<never> | undefined;
  private rejectWaiter: ((reason: unknown) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The time limit is still to be armed. */
  private timeoutPending: boolean;
  private disposed = false;

  constructor(parents: Parents, options?: LinkOptions) {
    this.parents = parents;
    this.options = options;
    this.timeoutPending = options?.timeoutMs !== undefined;
    this.abortable = parents !== undefined || this.timeoutPending;
    if (parents === undefined) {
      if (this.timeoutPending && options?.deferTimeout !== true) this.armTimeout();
      return;
    }
    const reasonOf = options?.reasonOf ?? cancellationOf;
    const aborted = firstAborted(parents);
    if (aborted !== undefined) {
      this.abort(reasonOf(aborted.reason));
      return;
    }
    this.onParentAbort = (event) => this.abort(reasonOf((event.target as AbortSignal).reason));
    if (isSignal(parents)) parents.addEventListener('abort', this.onParentAbort);
    else for (const parent of parents) parent?.addEventListener('abort', this.onParentAbort);
    if (this.timeoutPending && options?.deferTimeout !== true) this.armTimeout();
  }

  /** A signal that aborts with the link. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Starts the time limit (once; a no-op when it runs, was spent, or there is none). */
  armTimeout(): void {
    if (!this.timeoutPending || this.aborted || this.disposed) return;
    this.timeoutPending = false;
    const options = this.options!;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.abort(
        options.timeoutReason?.() ??
          new DOMException(`timed out after ${options.timeoutMs} ms`, 'TimeoutError'),
      );
    }, options.timeoutMs);
  }

  /** Rejects with the reason once the link aborts (at once when it has). */
  whenAborted(): Promise<never> {
    if (this.waiter === undefined) {
      this.waiter = this.aborted
        ? Promise.reject(this.reason)
        : new Promise<never>((_, reject) => {
            this.rejectWaiter = reject;
          });
      // Nobody may be racing it when it rejects.
      this.waiter.catch(() => {});
    }
    return this.waiter;
  }

  /** Aborts the link (once) with `reason`; its parents are untouched. */
  abort(reason: unknown = new CancelledError()): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.rejectWaiter?.(reason);
    const disposed = this.disposed;
    this.dispose();
    if (!disposed) this.options?.onAbort?.(reason);
  }

  /** Removes the listeners on the parents and clears the timer; the link stops following them. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timeoutPending = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const listener = this.onParentAbort;
    const parents = this.parents;
    if (listener === undefined || parents === undefined) return;
    if (isSignal(parents)) parents.removeEventListener('abort', listener);
    else for (const parent of parents) parent?.removeEventListener('abort', listener);
  }
}

/**
 * Links `parents` (a signal, several, or none) into one `AbortLink`, with an optional time limit.
 *
 * @example
 * const link = linkSignals([turnSignal, requestSignal], { timeoutMs: 5_000 });
 * try {
 *   await fetch(url, { signal: link.signal });
 * } finally {
 *   link.dispose();
 * }
 */
export function linkSignals(parents: Parents, options?: LinkOptions): AbortLink {
  return new AbortLink(parents, options);
}

function isSignal(parents: NonNullable<Parents>): parents is AbortSignal {
  return !Array.isArray(parents);
}

function firstAborted(parents: NonNullable<Parents>): AbortSignal | undefined {
  if (isSignal(parents)) return parents.aborted ? parents : undefined;
  for (const parent of parents) if (parent?.aborted) return parent;
  return undefined;
}
