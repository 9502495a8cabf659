import { canonicalHash } from '../tools/canonical-json.js';

/** Thresholds on identical calls (same tool, same arguments) in a row. Set `warn` to 0 to disable. */
export interface LoopThresholds {
  /** Append a warning to the result after this many identical results. Default 2. */
  readonly warn?: number;
  /** Replace the result with a hard stop message. Default 3. */
  readonly block?: number;
  /** Do not execute the call at all. Default 4. */
  readonly skip?: number;
}

/** What to do before dispatching a call. */
export type LoopCheck =
  | { readonly action: 'run' }
  | { readonly action: 'skip'; readonly repeatCount: number; readonly message: string };

/** What to do with a result after dispatch. */
export type LoopVerdict =
  | { readonly action: 'none' }
  | { readonly action: 'warn' | 'block'; readonly repeatCount: number; readonly message: string };

interface Streak {
  count: number;
  resultHash: string;
}

/**
 * Detects an agent repeating the same tool call with the same arguments and getting the same
 * result: it warns, then blocks the result, then refuses to run the call (`rejected_loop`).
 * A different result resets the streak. Keys are the tool name and a canonical hash of arguments.
 */
export class LoopDetector {
  private readonly warn: number;
  private readonly block: number;
  private readonly skip: number;
  /** Consecutive identical results per (tool, arguments). */
  private readonly streaks = new Map<string, Streak>();

  constructor(thresholds: LoopThresholds = {}) {
    this.warn = thresholds.warn ?? 2;
    this.block = thresholds.block ?? 3;
    this.skip = thresholds.skip ?? 4;
  }

  private key(toolName: string, args: unknown): string {
    return `${toolName}\0${canonicalHash(args)}`;
  }

  /** Whether the next call of `toolName(args)` may run. */
  beforeDispatch(toolName: string, args: unknown): LoopCheck {
    if (this.warn === 0) return RUN;
    const streak = this.streaks.get(this.key(toolName, args));
    if (streak === undefined || streak.count + 1 < this.skip) return RUN;
    const repeatCount = streak.count + 1;
    return {
      action: 'skip',
      repeatCount,
      message: `BLOCKED: ${toolName}() was NOT executed (repeated ${repeatCount} times identically). Use a different tool or different arguments.`,
    };
  }

  /** Records a result and says whether to warn or block. */
  afterDispatch(toolName: string, args: unknown, result: unknown): LoopVerdict {
    if (this.warn === 0) return NONE;
    const key = this.key(toolName, args);
    const resultHash = canonicalHash(result ?? null);
    const streak = this.streaks.get(key);
    if (streak === undefined || streak.resultHash !== resultHash) {
      this.streaks.set(key, { count: 1, resultHash });
      return NONE;
    }
    streak.count += 1;
    const repeatCount = streak.count;
    if (repeatCount >= this.block) {
      return {
        action: 'block',
        repeatCount,
        message: `BLOCKED: ${toolName}() returned the same result ${repeatCount} times identically. Stop repeating it; try a different tool or different arguments.`,
      };
    }
    if (repeatCount >= this.warn) {
      return {
        action: 'warn',
        repeatCount,
        message: `[LOOP DETECTED] This exact ${toolName}() call has produced the same result ${repeatCount} times. Try a DIFFERENT tool or DIFFERENT parameters.`,
      };
    }
    return NONE;
  }
}

const RUN: LoopCheck = Object.freeze({ action: 'run' });
const NONE: LoopVerdict = Object.freeze({ action: 'none' });
