import type { ToolCallResult } from '../dispatch/result.js';

/**
 * Puts results that settle in any order back into planner order: each result goes out as soon as
 * it and every earlier one have settled. A result that settles in turn goes straight out.
 */
export class Resequencer {
  /** Settled results waiting for an earlier one, by emit order. */
  private held: Map<number, ToolCallResult> | null = null;
  /** Emit order of the next result to deliver. */
  private next = 0;

  constructor(private readonly deliver: (result: ToolCallResult) => void) {}

  /** How many settled results wait for an earlier one. */
  get size(): number {
    return this.held === null ? 0 : this.held.size;
  }

  /** How many results went out. */
  get delivered(): number {
    return this.next;
  }

  /** Takes the result of call `emitOrder` and delivers whatever is now in order. */
  settle(emitOrder: number, result: ToolCallResult): void {
    if (emitOrder !== this.next) {
      // Made on the first result out of order: a turn whose results settle in order needs none.
      this.held ??= new Map();
      this.held.set(emitOrder, result);
      return;
    }
    this.next += 1;
    this.deliver(result);
    const waiting = this.held;
    if (waiting === null || waiting.size === 0) return;
    for (let held = waiting.get(this.next); held !== undefined; held = waiting.get(this.next)) {
      waiting.delete(this.next);
      this.next += 1;
      this.deliver(held);
    }
  }
}
