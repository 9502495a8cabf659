import type { Observable, ObservableNotification } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';

/** One notification and the virtual frame it went out at. */
export interface Recorded {
  readonly frame: number;
  readonly notification: ObservableNotification<unknown>;
}

/**
 * Virtual time for operators whose work settles through promises (`dispatchCalls` runs calls on
 * the dispatcher, which awaits): `TestScheduler.run` would finish before a single promise settles.
 * Frames advance one at a time; after each frame's scheduled actions run, promise callbacks and
 * immediates drain before the next frame, so what they emit is stamped with the frame that caused
 * it. One marble character is one frame.
 */
export class MarbleClock {
  readonly scheduler = new TestScheduler(() => {
    throw new Error('compare with expectRecorded, not the scheduler');
  });

  constructor() {
    // Marbles parsed outside `run` mode count 10 frames per character by default.
    TestScheduler.frameTimeFactor = 1;
  }

  get frame(): number {
    return this.scheduler.frame;
  }

  cold<T>(marbles: string, values?: Record<string, T>, error?: unknown): Observable<T> {
    return this.scheduler.createColdObservable<T>(marbles, values, error);
  }

  /** Runs `work` at `frame` (virtual). */
  at(frame: number, work: () => void): void {
    this.scheduler.schedule(work, frame - this.scheduler.frame);
  }

  /** Resolves with `value` after `frames` virtual frames; `cancel` drops it. */
  after<T>(frames: number, value: T): { promise: Promise<T>; cancel(): void } {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((done) => {
      resolve = done;
    });
    const action = this.scheduler.schedule(() => resolve(value), frames);
    return { promise, cancel: () => action.unsubscribe() };
  }

  /** Subscribes and records every notification with its frame. */
  record<T>(observable: Observable<T>): { readonly log: Recorded[]; unsubscribe(): void } {
    const log: Recorded[] = [];
    const stamp = (notification: ObservableNotification<unknown>) =>
      log.push({ frame: this.scheduler.frame, notification });
    const subscription = observable.subscribe({
      next: (value) => stamp({ kind: 'N', value }),
      error: (error: unknown) => stamp({ kind: 'E', error }),
      complete: () => stamp({ kind: 'C' }),
    });
    return { log, unsubscribe: () => subscription.unsubscribe() };
  }

  /** Advances virtual time frame by frame up to `lastFrame`, letting promises settle in each. */
  async runTo(lastFrame: number): Promise<void> {
    for (let frame = this.scheduler.frame; frame <= lastFrame; frame += 1) {
      this.scheduler.maxFrames = frame;
      this.scheduler.flush();
      this.scheduler.frame = frame;
      for (let round = 0; round < 8; round += 1) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}

/** The notifications a marble diagram describes, frames counted one per character. */
export function expectedFrom(
  marbles: string,
  values?: Record<string, unknown>,
  error?: unknown,
): Recorded[] {
  TestScheduler.frameTimeFactor = 1;
  return TestScheduler.parseMarbles(marbles, values, error).map(({ frame, notification }) => ({
    frame,
    notification,
  }));
}
