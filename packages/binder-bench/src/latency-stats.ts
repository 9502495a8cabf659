/** Summary of a set of latencies in ms; every figure is null when there are none. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly mean: number | null;
  /** Population standard deviation. */
  readonly stddev: number | null;
}

/** The `q` quantile (0–1) of sorted values, nearest rank (a value that was measured). */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** p50 / p95 / p99 (nearest rank), mean and standard deviation of `latencies`, rounded to 0.01 ms. */
export function summarizeLatencies(latencies: readonly number[]): LatencySummary {
  const count = latencies.length;
  if (count === 0) return { count, p50: null, p95: null, p99: null, mean: null, stddev: null };
  const sorted = [...latencies].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / count;
  const variance = sorted.reduce((sum, value) => sum + (value - mean) ** 2, 0) / count;
  return {
    count,
    p50: round(quantile(sorted, 0.5)!),
    p95: round(quantile(sorted, 0.95)!),
    p99: round(quantile(sorted, 0.99)!),
    mean: round(mean),
    stddev: round(Math.sqrt(variance)),
  };
}
