import { abortError } from './race-abort.js';

interface Waiter {
  /** Planner position of the call: lower goes first. */
  readonly order: number;
  /** Arrival number: breaks ties in arrival order. */
  readonly sequence: number;
  readonly start: () => void;
}

/**
 * Runs one question at a time, in planner order. Among the questions waiting when the current one
 * is answered, the one with the lowest `order` (the call's `emitOrder`) goes next. The queue never
 * waits for a position that has not arrived, so a call held up elsewhere (or refused before it
 * reaches the gate) cannot stall the others.
 *
 * The first question after an idle period starts one macrotask late, so sibling calls dispatched
 * in the same tick are all waiting, and ordered, before anyone is asked — unless it is at
 * position 0: positions start at 0 and ties go in arrival order, so no call arriving later could
 * be asked before it, and it starts at once (a call dispatched on its own, one at a time, pays no
 * macrotask).
 */
export class ConsentQueue {
  /** Questions not yet started, sorted by (order, sequence). */
  private readonly waiting: Waiter[] = [];
  /** True while a question is being asked. */
  private busy = false;
  /** True while a start is scheduled for the next macrotask. */
  private scheduled = false;
  private sequence = 0;

  /** Pending questions, not counting the one being asked. */
  get size(): number {
    return this.waiting.length;
  }

  /**
   * Runs `ask` when its turn comes and settles with its outcome. If `signal` aborts first, the
   * question is dropped (or, if running, abandoned so the queue moves on) and the promise rejects
   * with the abort error.
   */
  run<T>(order: number, signal: AbortSignal | undefined, ask: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      /** waiting → running → done; every transition is synchronous, so no abort slips between. */
      let state: 'waiting' | 'running' | 'done' = 'waiting';
      const finish = () => {
        if (state === 'done') return;
        const held = state === 'running';
        state = 'done';
        signal?.removeEventListener('abort', onAbort);
        if (held) {
          this.busy = false;
          this.startNext();
        }
      };
      const onAbort = () => {
        if (state === 'waiting') this.remove(waiter);
        // An abandoned question releases the queue at once; its late answer is ignored.
        if (signal !== undefined) reject(abortError(signal));
        finish();
      };
      const waiter: Waiter = {
        order,
        sequence: this.sequence++,
        start: () => {
          state = 'running';
          Promise.resolve()
            .then(ask)
            .then(
              (answer) => {
                if (state === 'running') resolve(answer);
                finish();
              },
              (error: unknown) => {
                if (state === 'running') reject(error);
                finish();
              },
            );
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.insert(waiter);
      this.schedule(order);
    });
  }

  private insert(waiter: Waiter): void {
    let index = this.waiting.length;
    while (index > 0) {
      const before = this.waiting[index - 1]!;
      if (
        before.order < waiter.order ||
        (before.order === waiter.order && before.sequence < waiter.sequence)
      )
        break;
      index -= 1;
    }
    this.waiting.splice(index, 0, waiter);
  }

  private remove(waiter: Waiter): void {
    const index = this.waiting.indexOf(waiter);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  /** Starts the queue after an idle period; `order` is the position that just arrived. */
  private schedule(order: number): void {
    if (this.busy || this.scheduled) return;
    if (order <= 0) {
      this.startNext();
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startNext();
    });
  }

  /** Starts the lowest waiting question unless one is running. */
  private startNext(): void {
    if (this.busy) return;
    const next = this.waiting.shift();
    if (next === undefined) return;
    this.busy = true;
    next.start();
  }
}
