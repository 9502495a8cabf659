import { CancelledError, ToolTimeoutError } from '../errors.js';

/**
 * The abort state of one execution: a parent signal (the turn's, or a layer's) and a timeout.
 * The AbortController and the waiter promise are created only when someone asks for them, so a
 * call that is never aborted and never reads its signal allocates neither.
 */
export class CallAbort {
  private controller: AbortController | undefined;
  private waiter: Promise<never> | undefined;
  private rejectWaiter: ((reason: unknown) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly parent: AbortSignal | undefined;
  private readonly onParentAbort: (() => void) | undefined;
  /** Why the execution was aborted; undefined while it was not. */
  reason: unknown;
  aborted = false;
  readonly abortable: boolean;

  /** The time limit not armed yet (an executor that queues calls arms it when the call starts). */
  private deferred: { readonly timeoutMs: number; readonly toolName: string } | undefined;

  constructor(
    parent: AbortSignal | undefined,
    timeoutMs: number | undefined,
    toolName: string,
    deferTimeout = false,
  ) {
    this.parent = parent;
    this.abortable = parent !== undefined || timeoutMs !== undefined;
    if (parent?.aborted) {
      this.abort(parentReason(parent));
      return;
    }
    if (parent !== undefined) {
      this.onParentAbort = () => this.abort(parentReason(parent));
      parent.addEventListener('abort', this.onParentAbort, { once: true });
    }
    if (timeoutMs === undefined) return;
    this.deferred = { timeoutMs, toolName };
    if (!deferTimeout) this.armTimeout();
  }

  /** Starts the time limit (once; a no-op when it is running, spent or there is none). */
  armTimeout(): void {
    const deferred = this.deferred;
    if (deferred === undefined || this.aborted) return;
    this.deferred = undefined;
    this.timer = setTimeout(
      () => this.abort(new ToolTimeoutError(deferred.toolName, deferred.timeoutMs)),
      deferred.timeoutMs,
    );
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

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

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.rejectWaiter?.(reason);
    this.dispose();
  }

  /** Clears the timer and the parent listener; call when the execution settles. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.deferred = undefined;
    if (this.onParentAbort !== undefined) {
      this.parent?.removeEventListener('abort', this.onParentAbort);
    }
  }
}

/** A parent's abort becomes a timeout when a layer aborted for time, else a cancellation. */
function parentReason(parent: AbortSignal): unknown {
  const reason = parent.reason;
  if (ToolTimeoutError.isInstance(reason) || CancelledError.isInstance(reason)) return reason;
  return new CancelledError(
    reason instanceof Error ? reason.message : 'the turn was cancelled',
    reason,
  );
}
