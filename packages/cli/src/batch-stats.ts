import type { ToolCallResult } from 'switchyard';
import { toWireCategory } from 'switchyard/dispatch';

/** What `switchyard run` reports at the end. */
export interface BatchSummary {
  readonly turns: number;
  readonly badLines: number;
  readonly calls: number;
  readonly ok: number;
  readonly failed: number;
  /** Failed calls by wire error category. */
  readonly failedByCategory: Readonly<Record<string, number>>;
  /**
   * Per-call execution time, milliseconds (calls that ran). Read from the results rather than
   * the dispatcher's events: with no one listening, the dispatcher builds no events.
   */
  readonly latencyMs: {
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly wallMs: number;
  readonly callsPerSecond: number;
}

/** Accumulates results and latencies of a batch; latencies live in one growing typed array. */
export class BatchStats {
  private turns = 0;
  private badLines = 0;
  private ok = 0;
  private failed = 0;
  private readonly byCategory = new Map<string, number>();
  private latencies = new Float64Array(1024);
  private latencyCount = 0;

  addTurn(): void {
    this.turns += 1;
  }

  addBadLine(): void {
    this.badLines += 1;
  }

  addResult(result: ToolCallResult): void {
    if (result.ok) {
      this.ok += 1;
      return;
    }
    this.failed += 1;
    const category = toWireCategory(result.errorCategory) ?? 'unknown';
    this.byCategory.set(category, (this.byCategory.get(category) ?? 0) + 1);
  }

  addLatency(ms: number): void {
    if (this.latencyCount === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.latencyCount] = ms;
    this.latencyCount += 1;
  }

  get calls(): number {
    return this.ok + this.failed;
  }

  summary(wallMs: number): BatchSummary {
    // Three ranks and the maximum need no full sort: each selection narrows the next.
    const values = this.latencies.slice(0, this.latencyCount);
    let from = 0;
    const at = (quantile: number) => {
      if (values.length === 0) return 0;
      const rank = Math.min(values.length - 1, Math.ceil(quantile * values.length) - 1);
      const value = selectInPlace(values, rank, from);
      from = rank;
      return value;
    };
    return {
      turns: this.turns,
      badLines: this.badLines,
      calls: this.calls,
      ok: this.ok,
      failed: this.failed,
      failedByCategory: Object.fromEntries(
        [...this.byCategory].sort(([a], [b]) => a.localeCompare(b)),
      ),
      latencyMs: {
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        max: values.length === 0 ? 0 : selectInPlace(values, values.length - 1, from),
      },
      wallMs,
      callsPerSecond: wallMs > 0 ? (this.calls * 1000) / wallMs : 0,
    };
  }
}

/**
 * Moves the `rank`-th smallest of `values[from..]` to `values[rank]` and returns it (Hoare's
 * selection): what is left of it is no larger, what is right of it no smaller.
 */
function selectInPlace(values: Float64Array, rank: number, from: number): number {
  let left = from;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >>> 1] as number;
    let low = left;
    let high = right;
    while (low <= high) {
      while ((values[low] as number) < pivot) low += 1;
      while ((values[high] as number) > pivot) high -= 1;
      if (low <= high) {
        const swap = values[low] as number;
        values[low] = values[high] as number;
        values[high] = swap;
        low += 1;
        high -= 1;
      }
    }
    if (rank <= high) right = high;
    else if (rank >= low) left = low;
    else break;
  }
  return values[rank] as number;
}
