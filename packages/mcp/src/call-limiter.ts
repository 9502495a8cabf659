import { CancelledError } from 'switchyard';

/** Bounds how many calls run at once; the rest wait in arrival order. */
export class CallLimiter {
  readonly #limit: number;
  /** Calls running now. */
  #running = 0;
  /** Calls waiting for room, oldest first. */
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Waits for room; rejects with `CancelledError` when `signal` aborts first. Returns the release. */
  async acquire(signal: AbortSignal | undefined): Promise<() => void> {
    if (this.#running >= this.#limit) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        };
        const cancel = () => {
          const index = this.#waiting.indexOf(wake);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(
            new CancelledError('cancelled while waiting for a free call slot', signal?.reason),
          );
        };
        if (signal?.aborted) return cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        this.#waiting.push(wake);
      });
    } else {
      this.#running += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays the same.
      if (next === undefined) this.#running -= 1;
      else next();
    };
  }
}
