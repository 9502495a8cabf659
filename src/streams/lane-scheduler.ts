import type { CallPlan } from './call-plan.js';

/**
 * Which of a turn's waiting calls may start now, in planner order: at most `maxInFlight` at once,
 * calls on the same resource one after another (and never overtaking an earlier waiting call on
 * it), a call that needs confirmation alone, as a barrier. Calls held by the start gate keep their
 * place and their claims. Once the turn stopped, every waiting call starts at once: the dispatcher
 * answers each `cancelled` without running it.
 */
export class LaneScheduler {
  /** Pulled calls not started yet, in planner order. */
  readonly waiting: CallPlan[] = [];
  /** How many started calls have not settled. */
  inFlight = 0;
  /** Nothing more may run: waiting calls start only to be answered `cancelled`. */
  stopped = false;
  /** The start gate is closed: gated calls wait for it to open. */
  gateClosed: boolean;
  /** A running call is exclusive: nothing else may start. */
  private exclusiveRunning = false;
  /**
   * Resource keys of running calls → how many running calls hold each; made when the first keyed
   * call starts (a turn of read-only calls never needs it).
   */
  private busyKeys: Map<string, number> | null = null;

  private readonly maxInFlight: number;
  /** Starts a call the scheduler took off the waiting list (its lanes are already held). */
  private readonly start: (plan: CallPlan) => void;

  constructor(options: {
    readonly maxInFlight: number;
    /** The turn has a start gate, closed until its release. */
    readonly gateClosed: boolean;
    readonly start: (plan: CallPlan) => void;
  }) {
    this.maxInFlight = options.maxInFlight;
    this.gateClosed = options.gateClosed;
    this.start = options.start;
  }

  /** Starts every waiting call that may start now, in planner order. */
  pass(): void {
    // Keys of earlier waiting calls: a later call touching one of them must keep planner order.
    let claimed: Set<string> | null = null;
    for (let index = 0; index < this.waiting.length; ) {
      if (this.exclusiveRunning) return;
      const plan = this.waiting[index]!;
      if (this.stopped) {
        this.take(index);
        continue;
      }
      if (this.inFlight >= this.maxInFlight) return;
      const { constraint } = plan;
      if (plan.gated && this.gateClosed) {
        // Held in place: an exclusive call stays a barrier, a keyed one keeps its keys claimed.
        if (constraint.exclusive) return;
        claimed ??= new Set();
        for (const key of constraint.keys) claimed.add(key);
        index += 1;
        continue;
      }
      if (constraint.exclusive) {
        // A barrier: it waits for the running calls, and nothing after it may start first.
        if (this.inFlight > 0 || index > 0) return;
        this.take(index);
        continue;
      }
      if (this.blocked(constraint.keys, claimed)) {
        claimed ??= new Set();
        for (const key of constraint.keys) claimed.add(key);
        index += 1;
        continue;
      }
      this.take(index);
    }
  }

  /** A started call settled: its lanes are free again. */
  settled(plan: CallPlan): void {
    this.inFlight -= 1;
    if (plan.constraint.exclusive) this.exclusiveRunning = false;
    const busy = this.busyKeys;
    if (busy === null) return;
    for (const key of plan.constraint.keys) {
      const holders = (busy.get(key) ?? 1) - 1;
      if (holders === 0) busy.delete(key);
      else busy.set(key, holders);
    }
  }

  /**
   * Takes waiting call `index` off the list, holds its lanes and starts it. The head (the common
   * case) is shifted off: `splice` would allocate an array of the removed call on every start.
   */
  private take(index: number): void {
    const plan = this.waiting[index]!;
    if (index === 0) this.waiting.shift();
    else this.waiting.splice(index, 1);
    this.inFlight += 1;
    if (plan.constraint.exclusive) this.exclusiveRunning = true;
    const { keys } = plan.constraint;
    if (keys.length > 0) {
      this.busyKeys ??= new Map();
      const busy = this.busyKeys;
      for (const key of keys) busy.set(key, (busy.get(key) ?? 0) + 1);
    }
    this.start(plan);
  }

  /** A key is held by a running call, or claimed by an earlier waiting one. */
  private blocked(keys: readonly string[], claimed: Set<string> | null): boolean {
    if (keys.length === 0) return false;
    for (const key of keys) if (this.busyKeys?.has(key) || claimed?.has(key)) return true;
    return false;
  }
}
