import type { ToolCallResult } from '../dispatch/result.js';
import type { JsonObject } from '../tools/json.js';
import type { CallEntry } from './run-state.js';

/**
 * A call waiting for a decision, as data: show it to whoever decides, then apply the decision by
 * call id (`RunJournal.decide`, or `decideApproval` on a store from any process).
 */
export interface PendingApproval {
  readonly runId: string;
  /** The call's id as the model gave it. */
  readonly callId: string;
  readonly toolName: string;
  /** The arguments (without the keys the tool's `safety.redact` lists). */
  readonly arguments: JsonObject;
  /**
   * Binds a decision to this very call: its place (or id), tool and arguments. A decision passing
   * another key (the call was proposed again with other arguments) is refused.
   */
  readonly key: string;
  /** ISO time of the request. */
  readonly requestedAt: string;
  /** ISO time the request lapses into a denial; null: never. */
  readonly expiresAt: string | null;
}

/** A call that may or may not have taken effect, surfaced until an operator resolves it. */
export interface InDoubtCall {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: JsonObject;
  /** Identifies the call to `RunJournal.resolve` when its id is not unique in the run. */
  readonly key: string;
  /** The key its runtime handed to the systems it changes: look the call up there. */
  readonly idempotencyKey: string;
  /** ISO time the call started; null when its executor reported the doubt without an intent. */
  readonly startedAt: string | null;
  /** Why it is in doubt. */
  readonly reason: string;
}

/** Why a call whose intent has no outcome is in doubt. */
const STOPPED = 'the run stopped while the call ran';

export function pendingApprovalOf(runId: string, entry: CallEntry): PendingApproval | undefined {
  const approval = entry.approval;
  if (approval === undefined || entry.decision !== undefined) return undefined;
  return {
    runId,
    callId: approval.callId,
    toolName: approval.toolName,
    arguments: approval.arguments,
    key: entry.key,
    requestedAt: new Date(approval.requestedAt).toISOString(),
    expiresAt: approval.expiresAt === null ? null : new Date(approval.expiresAt).toISOString(),
  };
}

export function inDoubtCallOf(runId: string, entry: CallEntry): InDoubtCall {
  const intent = entry.intent;
  return {
    runId,
    callId: entry.callId,
    toolName: entry.toolName,
    arguments: entry.arguments,
    key: entry.key,
    idempotencyKey: intent?.idempotencyKey ?? '',
    startedAt: intent === undefined ? null : new Date(intent.at).toISOString(),
    reason: entry.outcome?.result.error ?? STOPPED,
  };
}

/** A call its executor reported in doubt (a lost queue job) in a run without a journal. */
export function inDoubtCallOfResult(runId: string, result: ToolCallResult): InDoubtCall {
  return {
    runId,
    callId: result.toolCallId,
    toolName: result.toolName,
    arguments: result.arguments,
    key: '',
    idempotencyKey: '',
    startedAt: null,
    reason: result.error ?? STOPPED,
  };
}
