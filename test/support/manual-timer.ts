import type { BudgetTimer } from '../../src/middleware/index.js';

/** A budget timer the test fires by hand, recording how it was armed and whether it was disarmed. */
export function manualTimer() {
  const armed: { ms: number; callback: () => void; disarmed: boolean }[] = [];
  const timer: BudgetTimer = (callback, ms) => {
    const entry = { ms, callback, disarmed: false };
    armed.push(entry);
    return () => {
      entry.disarmed = true;
    };
  };
  return {
    timer,
    armed,
    /** Fires the most recently armed timer. */
    fire(): void {
      armed.at(-1)?.callback();
    },
  };
}
