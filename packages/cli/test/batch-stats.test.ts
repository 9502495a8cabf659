import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchStats } from '../src/batch-stats.js';

/** The quantile as a sorted copy gives it: the value at rank ceil(q·n) − 1. */
function sortedQuantile(values: readonly number[], quantile: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] ?? 0;
}

describe('BatchStats', () => {
  it('reports the latency quantiles and maximum a full sort gives, duplicates included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }).map(Math.abs), fc.constant(1)),
          {
            minLength: 1,
            maxLength: 3000,
          },
        ),
        (latencies) => {
          const stats = new BatchStats();
          for (const ms of latencies) stats.addLatency(ms);
          expect(stats.summary(1).latencyMs).toEqual({
            p50: sortedQuantile(latencies, 0.5),
            p95: sortedQuantile(latencies, 0.95),
            p99: sortedQuantile(latencies, 0.99),
            max: Math.max(...latencies),
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reports zeros when no call ran', () => {
    expect(new BatchStats().summary(1).latencyMs).toEqual({ p50: 0, p95: 0, p99: 0, max: 0 });
  });
});
