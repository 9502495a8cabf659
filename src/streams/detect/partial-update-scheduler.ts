import { rx } from '../../rxjs.js';

/**
 * When coalesced partial updates go out. RxJS schedulers (`asyncScheduler`, `TestScheduler`,
 * `VirtualTimeScheduler`) fit as they are; tests may pass a hand-driven fake.
 */
export interface PartialUpdateScheduler {
  /** Runs `work` once after `delay` milliseconds; the returned handle cancels it. */
  schedule(
    work: () => void,
    delay: number,
  ): {
    /** Cancels the work if it has not run yet. */
    unsubscribe(): void;
  };
}

/** Real time, through RxJS's `asyncScheduler` (a `setTimeout` per coalescing window). */
export const realTimeScheduler: PartialUpdateScheduler = {
  schedule: (work, delay) => rx().asyncScheduler.schedule(work, delay),
};
