import { createHash } from 'node:crypto';
import { InvalidOptionError } from 'switchyard';

/** How a simulated binder's answer times are drawn, in ms. */
export type LatencyDistribution =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  /** Log-normal through its median and 95th percentile (p95 ≥ median). */
  | { readonly kind: 'lognormal'; readonly medianMs: number; readonly p95Ms: number };

const Z95 = 1.6448536269514722;

/** A number in [0, 1) fixed by `key`: the same key draws the same latency in every run. */
export function uniformOf(key: string): number {
  const digest = createHash('sha256').update(key).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A standard normal deviate from two uniforms (Box–Muller). */
function normalOf(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

/** The latency `distribution` gives for `key` (deterministic), in ms, never negative. */
export function drawLatency(distribution: LatencyDistribution, key: string): number {
  switch (distribution.kind) {
    case 'fixed':
      return distribution.ms;
    case 'uniform':
      return distribution.minMs + uniformOf(key) * (distribution.maxMs - distribution.minMs);
    case 'lognormal': {
      const sigma = Math.log(distribution.p95Ms / distribution.medianMs) / Z95;
      const z = normalOf(uniformOf(`${key}#1`), uniformOf(`${key}#2`));
      return distribution.medianMs * Math.exp(sigma * z);
    }
    default: {
      const never: never = distribution;
      return never;
    }
  }
}

/** Throws `InvalidOptionError` (option `latency`) unless the distribution's numbers make sense. */
export function checkLatencyDistribution(distribution: LatencyDistribution, label: string): void {
  const bad = (rule: string) => {
    throw new InvalidOptionError('latency', `bench binder: binder ${label}: latency ${rule}`);
  };
  const ok = (value: number) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
  switch (distribution?.kind) {
    case 'fixed':
      if (!ok(distribution.ms)) bad('ms must be a finite number ≥ 0');
      return;
    case 'uniform':
      if (
        !ok(distribution.minMs) ||
        !ok(distribution.maxMs) ||
        distribution.maxMs < distribution.minMs
      )
        bad('needs 0 ≤ minMs ≤ maxMs');
      return;
    case 'lognormal':
      if (!ok(distribution.medianMs) || distribution.medianMs === 0 || !ok(distribution.p95Ms))
        bad('needs medianMs > 0');
      if (distribution.p95Ms < distribution.medianMs) bad('needs p95Ms ≥ medianMs');
      return;
    default:
      bad('kind must be fixed, uniform or lognormal');
  }
}

/** The distribution in words (`lognormal median 180 ms, p95 450 ms`), for tables and plots. */
export function describeLatency(distribution: LatencyDistribution): string {
  switch (distribution.kind) {
    case 'fixed':
      return `fixed ${distribution.ms} ms`;
    case 'uniform':
      return `uniform ${distribution.minMs}–${distribution.maxMs} ms`;
    case 'lognormal':
      return `lognormal median ${distribution.medianMs} ms, p95 ${distribution.p95Ms} ms`;
    default: {
      const never: never = distribution;
      return never;
    }
  }
}
