/** One tool module's record of worker crashes. */
interface Breaker {
  /** Crashes of the module's calls since one of them last completed. */
  streak: number;
  /** While open: when its cool-down ends (a probe may then run); undefined while closed. */
  openUntil: number | undefined;
  /** A probe call of the open module is running: its other calls keep failing fast. */
  probing: boolean;
  /** What the last crash said, for the calls refused while the breaker is open. */
  reason: string;
}

/** What `admit` decided for a call of a module. */
export type Admission =
  | { readonly run: true; readonly probe: boolean }
  | { readonly run: false; readonly reason: string };

const RUN: Admission = { run: true, probe: false };
const PROBE: Admission = { run: true, probe: true };

/**
 * Circuit breakers over worker crashes, one per tool module: `limit` crashes in a row of one
 * module's calls open its breaker, and its calls fail fast for `cooldownMs`; then one call runs as
 * a probe. The probe completing (whatever its result) closes the breaker; crashing reopens it.
 * Other modules' tools keep running throughout.
 */
export class CrashBreakers {
  readonly #limit: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  readonly #breakers = new Map<string, Breaker>();
  /** Breakers open now (or probing). */
  #open = 0;

  /** `now`: the clock cool-downs are read on (`Date.now` in the pool). */
  constructor(options: {
    readonly limit: number;
    readonly cooldownMs: number;
    readonly now: () => number;
  }) {
    this.#limit = options.limit;
    this.#cooldownMs = options.cooldownMs;
    this.#now = options.now;
  }

  /** True while no module's breaker is open. */
  get closed(): boolean {
    return this.#open === 0;
  }

  /** Whether a call of `module` may run now, and whether it is the probe of an open breaker. */
  admit(module: string): Admission {
    const breaker = this.#breakers.get(module);
    if (breaker?.openUntil === undefined) return RUN;
    if (breaker.probing || this.#now() < breaker.openUntil)
      return { run: false, reason: breaker.reason };
    breaker.probing = true;
    return PROBE;
  }

  /** A call of `module` completed (ok or a tool error): its crash streak ends, its breaker closes. */
  completed(module: string): void {
    const breaker = this.#breakers.get(module);
    if (breaker === undefined) return;
    if (breaker.openUntil !== undefined) this.#open -= 1;
    this.#breakers.delete(module);
  }

  /** A call of `module` crashed its worker; returns true when that opened (or reopened) its breaker. */
  crashed(module: string, description: string): boolean {
    let breaker = this.#breakers.get(module);
    if (breaker === undefined) {
      breaker = { streak: 0, openUntil: undefined, probing: false, reason: '' };
      this.#breakers.set(module, breaker);
    }
    breaker.streak += 1;
    const wasOpen = breaker.openUntil !== undefined;
    if (!wasOpen && breaker.streak < this.#limit) return false;
    if (!wasOpen) this.#open += 1;
    breaker.probing = false;
    breaker.openUntil = this.#now() + this.#cooldownMs;
    breaker.reason =
      `workers running tools of ${module} keep dying (${breaker.streak} crashes in a row; ` +
      `last: ${description}); calls fail fast until a probe after ${this.#cooldownMs} ms succeeds`;
    return true;
  }

  /** A probe ended without completing or crashing (cancelled, timed out): the next call probes. */
  probeEnded(module: string): void {
    const breaker = this.#breakers.get(module);
    if (breaker !== undefined) breaker.probing = false;
  }
}
