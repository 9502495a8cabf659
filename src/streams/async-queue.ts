import { FifoQueue } from '../actors/fifo-queue.js';

/**
 * A queue one party fills and another drains, one item at a time: synchronously while items are
 * queued, by promise when it must wait. Dequeue is O(1) however long the backlog grows.
 */
export class AsyncQueue<T> {
  private readonly items = new FifoQueue<T>();
  private ended = false;
  private failure: { error: unknown } | null = null;
  /** The drainer waiting for the next item, if it ran dry. */
  private waiter: { resolve(value: T | undefined): void; reject(error: unknown): void } | null =
    null;

  get size(): number {
    return this.items.size;
  }

  push(item: T): void {
    const waiter = this.waiter;
    if (waiter === null) {
      this.items.push(item);
      return;
    }
    this.waiter = null;
    waiter.resolve(item);
  }

  /** No more items; with an error, the drainer receives it after the queued items. */
  end(failure?: { error: unknown }): void {
    this.ended = true;
    if (failure !== undefined) this.failure = failure;
    const waiter = this.waiter;
    if (waiter === null) return;
    this.waiter = null;
    if (failure !== undefined) waiter.reject(failure.error);
    else waiter.resolve(undefined);
  }

  /** The next item; `undefined` once ended and drained. */
  next(): T | undefined | Promise<T | undefined> {
    if (this.items.size > 0) return this.items.shift();
    if (this.failure !== null) return Promise.reject(this.failure.error);
    if (this.ended) return undefined;
    return new Promise<T | undefined>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}
