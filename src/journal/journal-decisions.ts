import { JournalDecisionError } from '../errors.js';
import { EXPIRY } from './call-gate.js';
import type { DecisionRecord, ResolutionRecord } from './journal-record.js';
import { type CallEntry, isInDoubt, type RunState } from './run-state.js';

/** A decision on a pending approval, applied by call id. */
export interface ApprovalDecision {
  /** The call's id, as in `PendingApproval.callId`. */
  readonly callId: string;
  readonly decision: 'approved' | 'denied';
  /** Who decided. Default `operator`. */
  readonly decidedBy?: string;
  /** Why; a denial's reason is the error the model reads. */
  readonly reason?: string;
  /**
   * The `PendingApproval.key` the decider saw: the decision then applies to that very call and
   * arguments only (`changed_arguments` otherwise). Needed when the call id is not unique in the run.
   */
  readonly key?: string;
  /** The tool the decider saw (`other_tool` otherwise). */
  readonly toolName?: string;
}

/** An operator's resolution of an in-doubt call, applied by call id. */
export interface InDoubtResolution {
  /** The call's id, as in `InDoubtCall.callId`. */
  readonly callId: string;
  /**
   * `done`: it took effect (the run goes on as if it completed); `rerun`: it did not (a resumed
   * run runs it again); `abandon`: leave it (a resumed run gets an `abandoned` result for it).
   */
  readonly resolution: 'done' | 'rerun' | 'abandon';
  /** Who resolved it. Default `operator`. */
  readonly resolvedBy?: string;
  /** What the operator found; `done` hands it to the model as the call's result. */
  readonly note?: string;
  /** The `InDoubtCall.key`, when the call id is not unique in the run. */
  readonly key?: string;
}

/**
 * The decision record for `decision`, or null when the same decision already holds (deciding
 * again changes nothing).
 *
 * @throws JournalDecisionError when it cannot apply (see its `reason`).
 */
export function decisionRecord(
  state: RunState,
  decision: ApprovalDecision,
  now: number,
): DecisionRecord | null {
  const { callId } = decision;
  const entry = onlyOne(
    [...state.calls.values()].filter((each) => each.approval?.callId === callId),
    (each) => each.decision === undefined,
    decision,
    'approval',
  );
  if (decision.toolName !== undefined && decision.toolName !== entry.toolName) {
    throw new JournalDecisionError(
      'other_tool',
      callId,
      `call ${callId} is a call of ${entry.toolName}, not ${decision.toolName}`,
    );
  }
  const held = entry.decision;
  if (held !== undefined) {
    if (held.decision === decision.decision && held.decidedBy !== EXPIRY) return null;
    throw new JournalDecisionError(
      held.decidedBy === EXPIRY ? 'expired' : 'already_decided',
      callId,
      held.decidedBy === EXPIRY
        ? `the approval of call ${callId} expired`
        : `call ${callId} was already ${held.decision} by ${held.decidedBy}`,
    );
  }
  const expiresAt = entry.approval?.expiresAt ?? null;
  if (expiresAt !== null && now >= expiresAt) {
    throw new JournalDecisionError(
      'expired',
      callId,
      `the approval of call ${callId} expired at ${new Date(expiresAt).toISOString()}`,
    );
  }
  return {
    type: 'decision',
    key: entry.key,
    decision: decision.decision,
    decidedBy: decision.decidedBy ?? 'operator',
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    decidedAt: now,
  };
}

/**
 * The resolution record for `resolution`.
 *
 * @throws JournalDecisionError when the call is not in doubt (see its `reason`).
 */
export function resolutionRecord(
  state: RunState,
  resolution: InDoubtResolution,
  now: number,
): ResolutionRecord {
  const entry = onlyOne(
    [...state.calls.values()].filter((each) => each.callId === resolution.callId),
    isInDoubt,
    resolution,
    'in-doubt call',
  );
  if (!isInDoubt(entry)) {
    throw new JournalDecisionError(
      'not_in_doubt',
      resolution.callId,
      `call ${resolution.callId} is not in doubt`,
    );
  }
  return {
    type: 'resolution',
    key: entry.key,
    attempt: entry.attempt,
    resolution: resolution.resolution,
    resolvedBy: resolution.resolvedBy ?? 'operator',
    ...(resolution.note === undefined ? {} : { note: resolution.note }),
    at: now,
  };
}

/**
 * The one entry a decision names: by call id, narrowed by its key when it gives one, else to the
 * entries still `open` to it when there are several (ids repeat across turns with some models).
 */
function onlyOne(
  all: CallEntry[],
  open: (entry: CallEntry) => boolean,
  named: { readonly callId: string; readonly key?: string },
  what: string,
): CallEntry {
  const { callId, key } = named;
  const narrowed = all.filter(open);
  const found = key !== undefined || narrowed.length === 0 ? all : narrowed;
  if (found.length === 0) {
    throw new JournalDecisionError('unknown_call', callId, `no ${what} has call id ${callId}`);
  }
  if (key !== undefined) {
    const exact = found.find((entry) => entry.key === key);
    if (exact === undefined) {
      throw new JournalDecisionError(
        'changed_arguments',
        callId,
        `call ${callId} was proposed again with other arguments (or another tool): decide on the call as it now stands`,
      );
    }
    return exact;
  }
  if (found.length > 1) {
    throw new JournalDecisionError(
      'ambiguous_call',
      callId,
      `${found.length} calls of this run have id ${callId}: name the one meant by its key`,
    );
  }
  return found[0]!;
}
