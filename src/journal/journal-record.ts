import type { ToolCallResult } from '../dispatch/result.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import type { JsonObject } from '../tools/json.js';

/**
 * One line of a run's journal. Records are only ever appended; what a run's calls came to is the
 * fold of its records (`foldRun`). `key` names a call across runs: where it stands (or its id),
 * its tool and a hash of its arguments (see `callKeyOf`), so a record never applies to another
 * call or to changed arguments. `attempt` counts the runs of a call an operator sent back to run
 * again (`rerun`): it starts at 1.
 */
export type JournalRecord =
  | TurnRecord
  | IntentRecord
  | OutcomeRecord
  | ApprovalRecord
  | DecisionRecord
  | ResolutionRecord;

/** A model turn that streamed to its end, as the deltas it sent: a resumed run replays it. */
export interface TurnRecord {
  readonly type: 'turn';
  readonly iteration: number;
  readonly deltas: readonly ToolCallDelta[];
}

/** A call about to run: recorded, and durable, before it starts. */
export interface IntentRecord {
  readonly type: 'intent';
  readonly key: string;
  readonly attempt: number;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments, without the keys the tool's `safety.redact` lists. */
  readonly arguments: JsonObject;
  readonly idempotencyKey: string;
  /** ms since the epoch. */
  readonly at: number;
}

/** What a call that ran came to. */
export interface OutcomeRecord {
  readonly type: 'outcome';
  readonly key: string;
  readonly attempt: number;
  readonly result: JournaledResult;
  readonly at: number;
}

/** A call that waits for a decision. */
export interface ApprovalRecord {
  readonly type: 'approval';
  readonly key: string;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments, without the keys the tool's `safety.redact` lists. */
  readonly arguments: JsonObject;
  readonly requestedAt: number;
  /** When the request lapses (a denial), ms since the epoch; null: never. */
  readonly expiresAt: number | null;
}

/** The decision on a call that waited for one; the first recorded for a call is the one that holds. */
export interface DecisionRecord {
  readonly type: 'decision';
  readonly key: string;
  readonly decision: 'approved' | 'denied';
  readonly decidedBy: string;
  readonly reason?: string;
  readonly decidedAt: number;
}

/**
 * What an operator made of an in-doubt call: `done` (it took effect: the run goes on as if it had
 * completed), `rerun` (it did not: run it again) or `abandon` (not run again; the run goes on with
 * an `abandoned` result).
 */
export interface ResolutionRecord {
  readonly type: 'resolution';
  readonly key: string;
  readonly attempt: number;
  readonly resolution: 'done' | 'rerun' | 'abandon';
  readonly resolvedBy: string;
  readonly note?: string;
  readonly at: number;
}

/** The part of a result a journal keeps: enough to hand the same result back on resume. */
export type JournaledResult = Pick<
  ToolCallResult,
  | 'ok'
  | 'status'
  | 'result'
  | 'renderedResult'
  | 'observation'
  | 'error'
  | 'errorCategory'
  | 'executor'
  | 'executionDurationMs'
  | 'content'
>;

/** The journaled part of `result`. */
export function journaledResult(result: ToolCallResult): JournaledResult {
  const journaled: { -readonly [Key in keyof JournaledResult]: JournaledResult[Key] } = {
    ok: result.ok,
    status: result.status,
    result: result.result,
    renderedResult: result.renderedResult,
    observation: result.observation,
    error: result.error,
    errorCategory: result.errorCategory,
    executor: result.executor,
    executionDurationMs: result.executionDurationMs,
  };
  if (result.content !== undefined) journaled.content = result.content;
  return journaled;
}

/**
 * A record as one line of JSON. An outcome whose value does not survive JSON (a `BigInt`, a
 * cycle) keeps its result as null: the model reads the rendered text, which is kept whole.
 */
export function serializeRecord(record: JournalRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    if (record.type !== 'outcome') throw error;
    return JSON.stringify({ ...record, result: { ...record.result, result: null } });
  }
}

/** A line read back: a record, or undefined for a line that is not one (cut off by a crash). */
export function parseRecord(line: string): JournalRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const record = JSON.parse(line) as JournalRecord | null;
    return typeof record === 'object' && record !== null && typeof record.type === 'string'
      ? record
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a record claims in its run, or undefined: only the first record with a claim is kept (an
 * intent per call and attempt, so two processes never both start a call; one approval request,
 * one decision; one resolution per attempt; one model turn per iteration).
 */
export function claimOf(record: JournalRecord): string | undefined {
  switch (record.type) {
    case 'intent':
    case 'resolution':
      return `${record.type}|${record.attempt}|${record.key}`;
    case 'approval':
    case 'decision':
      return `${record.type}|${record.key}`;
    case 'turn':
      return `turn|${record.iteration}`;
    case 'outcome':
      return undefined;
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
}
