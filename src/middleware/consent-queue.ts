import { abortError } from './race-abort.js';

/** What the queue orders: a question, whatever its answer's type. */
interface Waiter {
  /** Planner position of the call: lower goes first. */
  readonly order: number;
  /** Arrival number: breaks ties in arrival order. */
  readonly sequence: number;
  start(): Promise<void>;
}

/**
 * One question: waiting → running → done. Every transition is synchronous, so no abort slips
 * between them. A class, so a question costs one object rather than a closure per transition.
 */
class Question<T> implements Waiter {
  private state: 'waiting' | 'running' | 'done' = 'waiting';
  readonly promise: Promise<T>;
  private resolve!: (answer: T) => void;
  private reject!: (error: unknown) => void;
  /** Listens to `signal` while the question is not done; undefined without a signal. */
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly queue: ConsentQueue,
    readonly order: number,
    readonly sequence: number,
    private readonly signal: AbortSignal | undefined,
    private readonly ask: () => Promise<T>,
  ) {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (signal !== undefined) {
      this.onAbort = () => this.abort(signal);
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Asks, a microtask later (never inside the caller's own stack), and settles with the answer. */
  async start(): Promise<void> {
    this.state = 'running';
    let answer: T;
    try {
      await undefined;
      answer = await this.ask();
    } catch (error) {
      if (this.state === 'running') this.reject(error);
      this.finish();
      return;
    }
    if (this.state === 'running') this.resolve(answer);
    this.finish();
  }

  private abort(signal: AbortSignal): void {
    if (this.state === 'waiting') this.queue.remove(this);
    // An abandoned question releases the queue at once; its late answer is ignored.
    this.reject(abortError(signal));
    this.finish();
  }

  private finish(): void {
    if (this.state === 'done') return;
    const held = this.state === 'running';
    this.state = 'done';
    if (this.onAbort !== undefined) this.signal?.removeEventListener('abort', this.onAbort);
    if (held) this.queue.release();
  }
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
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const question = new Question(this, order, this.sequence++, signal, ask);
    this.insert(question);
    this.schedule(order);
    return question.promise;
  }

  /**
   * Like `run`, but when nothing is asking or waiting and `order` need not wait for earlier
   * calls, asks at once: an answer given synchronously then never touches the queue (no question
   * object, no promise), and one given later holds the queue as `run` would.
   */
  ask<T>(
    order: number,
    signal: AbortSignal | undefined,
    ask: () => T | Promise<T>,
  ): T | Promise<T> {
    if (this.busy || this.scheduled || this.waiting.length > 0 || order > 0 || signal?.aborted) {
      return this.run(order, signal, async () => ask());
    }
    this.busy = true;
    let answer: T | Promise<T>;
    try {
      answer = ask();
    } catch (error) {
      this.release();
      throw error;
    }
    if (!(answer instanceof Promise)) {
      this.release();
      return answer;
    }
    // Asked already: a running question over the pending answer holds the queue until it settles
    // and listens to the signal, exactly as if `run` had started it.
    const pending = answer;
    const question = new Question(this, order, this.sequence++, signal, () => pending);
    void question.start();
    return question.promise;
  }

  /** Called by the running question once it is done: the next one may start. */
  release(): void {
    this.busy = false;
    this.startNext();
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

  /** Drops a question that is still waiting (its call was cancelled). */
  remove(waiter: Waiter): void {
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
    void next.start();
  }
}
