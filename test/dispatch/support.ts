import type { Dispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEvent } from '../../src/dispatch/events.js';

/** Records every event of a dispatcher, in emission order. */
export function recordEvents(dispatcher: Dispatcher): ToolCallEvent[] {
  const events: ToolCallEvent[] = [];
  dispatcher.events$.subscribe((event) => events.push(event));
  return events;
}

/** A monotonic clock the test moves by hand. */
export function manualClock(start = 1000): { now: () => number; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}

/** Settles pending promise callbacks (microtasks and one macrotask turn). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
