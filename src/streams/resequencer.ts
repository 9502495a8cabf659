import type { ToolCallResult } from '../dispatch/result.js';

/**
 * Puts results that settle in any order back into planner order: each result goes out as soon as
 * it and every earlier one have settled. A result that settles in turn goes straight out.
 */
export class Resequencer {
  /** Settled results waiting for an earlier one, by emit order. */
  private readonly held = new Map<number, ToolCallResult>();
  /** Emit order of the next result to deliver. */
  private next = 0;

  constructor(private readonly deliver: (result: ToolCallResult) => void) {}

  /** How many settled results wait for an earlier one. */
  get size(): number {
    return this.held.size;
  }

  /** How many results went out. */
  get delivered(): number {
    return this.next;
  }

  /** Takes the result of call `emitOrder` and delivers whatever is now in order. */
  settle(emitOrder: number, result: ToolCallResult): void {
    if (emitOrder !== this.next) {
      this.held.set(emitOrder, result);
      return;
    }
    this.next += 1;
    this.deliver(result);
    if (this.held.size === 0) return;
    for (let held = this.held.get(this.next); held !== undefined; held = this.held.get(this.next)) {
      this.held.delete(this.next);
      this.next += 1;
      this.deliver(held);
    }
  }
}
