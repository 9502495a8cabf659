import type { BinderStatus } from 'switchyard/middleware';
import type { CaseOutcome } from './bind-case.js';
import { type LatencySummary, summarizeLatencies } from './latency-stats.js';

/** The figures of one binder under one budget. Rates are fractions (0–1) of the cases. */
export interface BenchRow {
  readonly binder: string;
  readonly simulated: boolean;
  readonly budgetMs: number;
  readonly cases: number;
  /** The arguments that reached the tool satisfy its schema. */
  readonly schemaValidRate: number;
  /** The arguments that reached the tool are correct by BFCL's rule. */
  readonly accuracy: number;
  /** Binder hops made (cases not skipped). */
  readonly hops: number;
  /**
   * Hops answered within the budget (`ok`, or `schema_error`: an answer that did not fit), of the
   * hops made; null when none was made. A timeout or a transport error (the endpoint unreachable,
   * an HTTP error) is no hit.
   */
  readonly budgetHitRate: number | null;
  readonly statuses: Readonly<Record<BinderStatus, number>>;
  /** Latency of the hops made (a timed-out hop counts with the time it was cut at). */
  readonly latencyMs: LatencySummary;
}

/** A reference row: what the tool receives with no binder in the loop. */
export interface ReferenceRow {
  /** `oracle`: the expected arguments (the strong planner's ceiling). `no binder`: the planner's own. */
  readonly name: 'oracle' | 'no binder';
  readonly cases: number;
  readonly schemaValidRate: number;
  readonly accuracy: number;
}

const rate = (count: number, of: number) =>
  of === 0 ? 0 : Math.round((count / of) * 10_000) / 10_000;

/** The figures of one binder × budget from its case outcomes. */
export function summarizeOutcomes(
  binder: { label: string; simulated: boolean },
  budgetMs: number,
  outcomes: readonly CaseOutcome[],
): BenchRow {
  const statuses: Record<BinderStatus, number> = {
    ok: 0,
    timeout: 0,
    transport_error: 0,
    schema_error: 0,
    skipped: 0,
  };
  const latencies: number[] = [];
  let valid = 0;
  let correct = 0;
  for (const outcome of outcomes) {
    statuses[outcome.status] += 1;
    if (outcome.status !== 'skipped') latencies.push(outcome.latencyMs);
    if (outcome.schemaValid) valid += 1;
    if (outcome.correct) correct += 1;
  }
  const hops = outcomes.length - statuses.skipped;
  return {
    binder: binder.label,
    simulated: binder.simulated,
    budgetMs,
    cases: outcomes.length,
    schemaValidRate: rate(valid, outcomes.length),
    accuracy: rate(correct, outcomes.length),
    hops,
    budgetHitRate: hops === 0 ? null : rate(statuses.ok + statuses.schema_error, hops),
    statuses,
    latencyMs: summarizeLatencies(latencies),
  };
}

/** A reference row from per-case scores. */
export function referenceRow(
  name: ReferenceRow['name'],
  scores: readonly { schemaValid: boolean; correct: boolean }[],
): ReferenceRow {
  return {
    name,
    cases: scores.length,
    schemaValidRate: rate(scores.filter((score) => score.schemaValid).length, scores.length),
    accuracy: rate(scores.filter((score) => score.correct).length, scores.length),
  };
}
