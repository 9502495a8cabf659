import type { Dispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEvent } from '../../src/dispatch/events.js';

/** Records every event of a dispatcher, in emission order. */
export function recordEvents(dispatcher: Dispatcher): ToolCallEvent[] {
  const events: ToolCallEvent[] = [];
  dispatcher.events$.subscribe((event) => events.push(event));
  return events;
}

/** Settles pending promise callbacks (microtasks and one macrotask turn). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
