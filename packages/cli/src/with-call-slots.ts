import type { Next, ToolCallEnvelope, ToolCaller, ToolCallResult } from 'switchyard';
import { FifoQueue } from 'switchyard/extension';

/**
 * One bound on tool calls in flight across every session that shares this layer: a call waits
 * (first come, first served) for a free slot before it goes on, and frees it when it settles.
 * A call cancelled while it waits goes on, when its turn comes, to be cancelled below.
 */
export function withCallSlots(slots: number): ToolCaller {
  /** Calls executing now. */
  let inFlight = 0;
  /** Calls waiting for a slot, oldest first: each resumes when one frees. */
  const waiting = new FifoQueue<() => void>();

  function release(): void {
    const wake = waiting.shift();
    if (wake === undefined) inFlight -= 1;
    else wake(); // the slot passes straight to the oldest waiter
  }

  return async function with_call_slots(
    call: ToolCallEnvelope,
    next: Next,
  ): Promise<ToolCallResult> {
    if (inFlight < slots) inFlight += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await next(call);
    } finally {
      release();
    }
  };
}
