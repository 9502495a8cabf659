import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import type { JsonObject } from '../tools/json.js';
import type {
  ApprovalRecord,
  DecisionRecord,
  IntentRecord,
  JournalRecord,
  OutcomeRecord,
  ResolutionRecord,
} from './journal-record.js';

/** What a run's records say about one call. */
export interface CallEntry {
  readonly key: string;
  callId: string;
  toolName: string;
  arguments: JsonObject;
  /** The call's current attempt: 1, and one more each time it was run again after a doubt. */
  attempt: number;
  /** The intent of the current attempt. */
  intent: IntentRecord | undefined;
  /** The outcome of the current attempt. */
  outcome: OutcomeRecord | undefined;
  /** An operator's `done` or `abandon` of the current attempt (`rerun` starts the next one). */
  resolution: ResolutionRecord | undefined;
  approval: ApprovalRecord | undefined;
  decision: DecisionRecord | undefined;
}

/** A call whose current attempt may or may not have taken effect, and is not resolved. */
export function isInDoubt(entry: CallEntry): boolean {
  if (entry.resolution !== undefined || entry.intent === undefined) return false;
  return entry.outcome === undefined || entry.outcome.result.status === 'in_doubt';
}

/** A call whose current attempt ran to a known outcome. */
export function isCompleted(entry: CallEntry): boolean {
  const status = entry.outcome?.result.status;
  return status !== undefined && status !== 'in_doubt' && status !== 'cancelled';
}

/**
 * A call whose current attempt was cancelled after its intent was recorded and before it started:
 * a later run starts it afresh (a call cancelled while it ran has no outcome: it is in doubt).
 */
export function isUnstarted(entry: CallEntry): boolean {
  return entry.resolution === undefined && entry.outcome?.result.status === 'cancelled';
}

/**
 * A run's records folded into what they say: the finished model turns by iteration and each
 * call's entry by key. The first of competing records holds (the first turn of an iteration, the
 * first decision on an approval); records of an attempt that is over are ignored.
 */
export class RunState {
  readonly turns = new Map<number, readonly ToolCallDelta[]>();
  readonly calls = new Map<string, CallEntry>();

  constructor(records: readonly JournalRecord[] = []) {
    for (const record of records) this.apply(record);
  }

  apply(record: JournalRecord): void {
    switch (record.type) {
      case 'turn':
        if (!this.turns.has(record.iteration)) this.turns.set(record.iteration, record.deltas);
        return;
      case 'intent': {
        const entry = this.#entry(record.key, record);
        if (record.attempt > entry.attempt) startAttempt(entry, record.attempt);
        if (record.attempt !== entry.attempt || entry.intent !== undefined) return;
        entry.intent = record;
        entry.callId = record.callId;
        entry.arguments = record.arguments;
        return;
      }
      case 'outcome': {
        const entry = this.#entry(record.key);
        if (record.attempt === entry.attempt && entry.outcome === undefined) entry.outcome = record;
        return;
      }
      case 'resolution': {
        const entry = this.#entry(record.key);
        if (record.attempt !== entry.attempt || entry.resolution !== undefined) return;
        if (record.resolution === 'rerun') startAttempt(entry, entry.attempt + 1);
        else entry.resolution = record;
        return;
      }
      case 'approval': {
        const entry = this.#entry(record.key, record);
        entry.approval ??= record;
        return;
      }
      case 'decision': {
        const entry = this.#entry(record.key);
        entry.decision ??= record;
        return;
      }
      default:
        // A record of a kind this version does not know (a newer writer's): it changes nothing.
        return;
    }
  }

  #entry(
    key: string,
    about?: { readonly callId: string; readonly toolName: string; readonly arguments: JsonObject },
  ): CallEntry {
    let entry = this.calls.get(key);
    if (entry === undefined) {
      entry = {
        key,
        callId: about?.callId ?? '',
        toolName: about?.toolName ?? '',
        arguments: about?.arguments ?? {},
        attempt: 1,
        intent: undefined,
        outcome: undefined,
        resolution: undefined,
        approval: undefined,
        decision: undefined,
      };
      this.calls.set(key, entry);
    }
    return entry;
  }
}

function startAttempt(entry: CallEntry, attempt: number): void {
  entry.attempt = attempt;
  entry.intent = undefined;
  entry.outcome = undefined;
  entry.resolution = undefined;
}
