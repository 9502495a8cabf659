import { FifoQueue } from '../actors/fifo-queue.js';

/** How a `CallCounter` forgets: never, per fixed window, or over a sliding window. */
export type CounterWindow =
  | { readonly mode: 'lifetime' }
  | { readonly mode: 'fixed' | 'sliding'; readonly ms: number };

/**
 * Counts calls for a budget. `used(now)` and `take(now)` are synchronous, so a check followed by a
 * take in the same tick is exact however many calls are in flight.
 */
export class CallCounter {
  /** Calls counted in the current fixed window, or in the lifetime. */
  private count = 0;
  /** Start of the current fixed window (ms). */
  private windowStart = Number.NEGATIVE_INFINITY;
  /** Times of the calls still inside the sliding window, oldest first. */
  private readonly stamps = new FifoQueue<number>();

  constructor(private readonly window: CounterWindow) {}

  /** Calls that count against the budget at `now`. */
  used(now: number): number {
    const window = this.window;
    if (window.mode === 'sliding') {
      while (this.stamps.size > 0 && this.stamps.peek()! <= now - window.ms) this.stamps.shift();
      return this.stamps.size;
    }
    if (window.mode === 'fixed') {
      const start = Math.floor(now / window.ms) * window.ms;
      if (start !== this.windowStart) {
        this.windowStart = start;
        this.count = 0;
      }
    }
    return this.count;
  }

  /** Counts one call at `now` (call `used(now)` first). */
  take(now: number): void {
    if (this.window.mode === 'sliding') this.stamps.push(now);
    else this.count += 1;
  }

  /** How long until one more call fits, or undefined for a lifetime budget (never). */
  retryAfterMs(now: number): number | undefined {
    const window = this.window;
    if (window.mode === 'lifetime') return undefined;
    if (window.mode === 'fixed') return this.windowStart + window.ms - now;
    const oldest = this.stamps.peek();
    return oldest === undefined ? 0 : oldest + window.ms - now;
  }
}
