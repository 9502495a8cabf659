import type { CallJournal, ExecuteCall } from '../dispatch/call-journal.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { idempotencyKeyFrom } from '../dispatch/idempotency-key.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import { errorMessage } from '../errors.js';
import { redactKeys } from '../middleware/receipts/redact-keys.js';
import { consentDeniedResult } from '../middleware/with-consent.js';
import type { JsonObject } from '../tools/json.js';
import type { AnyTool } from '../tools/tool-registry.js';
import { type CallIdentity, callKeyOf } from './call-key.js';
import type { JournalCore } from './journal-core.js';
import { type DecisionRecord, type JournaledResult, journaledResult } from './journal-record.js';
import {
  approvalRequiredResult,
  inDoubtResult,
  JOURNAL_LAYER,
  replayedResult,
  resolvedResult,
} from './journal-results.js';
import { pendingApprovalOf } from './journal-views.js';
import { type CallEntry, isCompleted, isInDoubt, isUnstarted } from './run-state.js';

/** Why a call is in doubt when another process claimed it first. */
const CLAIMED_ELSEWHERE =
  'another process started this call of the same run; whether it took effect is not known here';

/**
 * A run journal at the executor stage of each call, recognising calls by `identity`. What a call
 * comes to, in order:
 * 1. read-only tools run as they are, unrecorded (unless the journal records them too);
 * 2. a call that completed in an earlier run returns its recorded result; one an operator
 *    resolved returns what the resolution says;
 * 3. a call that needs approval and has no decision records a pending approval and returns
 *    `approval_required`; a denied (or lapsed) one returns `consent_denied`;
 * 4. a call in doubt runs again only when its tool is read-only, idempotent or honours its
 *    idempotency key; otherwise it returns `in_doubt` without running;
 * 5. any other call records its intent (durably, claimed so no two processes start it), runs
 *    with its idempotency key, and records its outcome. A cancelled call records none: it may
 *    have been part-way, so a later run finds it in doubt.
 */
export class CallGate implements CallJournal {
  readonly #core: JournalCore;
  readonly #identity: CallIdentity;

  constructor(core: JournalCore, identity: CallIdentity) {
    this.#core = core;
    this.#identity = identity;
  }

  run(
    call: ToolCallEnvelope,
    tool: AnyTool,
    execute: ExecuteCall,
  ): ToolCallResult | Promise<ToolCallResult> {
    const core = this.#core;
    const { safety } = tool;
    if (safety.readOnly && !core.readOnlyCalls) return execute(call);
    const key = callKeyOf(call, this.#identity);
    const entry = core.state.calls.get(key);
    if (entry !== undefined && isCompleted(entry)) {
      core.replayedCalls += 1;
      return replayedResult(call, entry.outcome!.result);
    }
    if (entry?.resolution !== undefined) {
      core.replayedCalls += 1;
      return resolvedResult(call, entry.resolution);
    }
    let approved: DecisionRecord | undefined;
    if (core.approvals?.when(call)) {
      const decision = entry?.decision;
      if (decision === undefined) {
        const lapsed = this.#lapsed(entry);
        return lapsed === undefined
          ? this.#awaitApproval(call, tool, key, entry)
          : core.record(lapsed).then(
              () => denied(call, lapsed),
              () => denied(call, lapsed),
            );
      }
      if (decision.decision === 'denied') return denied(call, decision);
      approved = decision;
    }
    let attempt = entry?.attempt ?? 1;
    if (entry !== undefined && isInDoubt(entry)) {
      if (!(safety.readOnly || safety.idempotent || safety.honorsIdempotencyKey)) {
        return inDoubtResult(call, entry.outcome?.result.error ?? undefined);
      }
      attempt += 1;
    } else if (entry !== undefined && isUnstarted(entry)) {
      attempt += 1;
    }
    return this.#runOnce(call, tool, key, attempt, approved, execute);
  }

  async #runOnce(
    call: ToolCallEnvelope,
    tool: AnyTool,
    key: string,
    attempt: number,
    approved: DecisionRecord | undefined,
    execute: ExecuteCall,
  ): Promise<ToolCallResult> {
    const core = this.#core;
    // A call cancelled before it reached here never starts: nothing to record.
    if (call.signal?.aborted) return execute(call);
    const idempotencyKey = idempotencyKeyFrom(`${core.runId}\n${key}`);
    let claimed: boolean;
    try {
      claimed = await core.record({
        type: 'intent',
        key,
        attempt,
        callId: call.callId,
        toolName: call.toolName,
        arguments: shown(tool, call.toolArgs),
        idempotencyKey,
        at: core.now(),
      });
    } catch (error) {
      return unrecorded(call, error);
    }
    if (!claimed) return inDoubtResult(call, CLAIMED_ELSEWHERE);
    if (call.signal?.aborted) {
      // Cancelled while its intent was written: it never starts, and a later run starts it afresh.
      await core.record(outcomeOf(key, attempt, UNSTARTED, core.now())).catch(ignore);
      return execute(call);
    }
    const result = await execute({ ...call, idempotencyKey });
    // A cancelled call may have been part-way: without an outcome, a later run finds it in doubt.
    if (result.status !== 'cancelled') {
      // A failed write leaves the call in doubt for a later run; this one has its result.
      await core.record(outcomeOf(key, attempt, journaledResult(result), core.now())).catch(ignore);
    }
    if (approved === undefined) return result;
    return { ...result, audit: { ...result.audit, consent: consentOf(approved) } };
  }

  /** The denial a pending approval has lapsed into, or undefined. */
  #lapsed(entry: CallEntry | undefined): DecisionRecord | undefined {
    const approval = entry?.approval;
    if (approval === undefined || approval.expiresAt === null) return undefined;
    const now = this.#core.now();
    if (now < approval.expiresAt) return undefined;
    const lapsed: DecisionRecord = {
      type: 'decision',
      key: approval.key,
      decision: 'denied',
      decidedBy: EXPIRY,
      reason: `the approval request expired at ${new Date(approval.expiresAt).toISOString()}`,
      decidedAt: now,
    };
    return lapsed;
  }

  async #awaitApproval(
    call: ToolCallEnvelope,
    tool: AnyTool,
    key: string,
    entry: CallEntry | undefined,
  ): Promise<ToolCallResult> {
    const core = this.#core;
    if (entry?.approval === undefined) {
      const now = core.now();
      const expiresInMs = core.approvals?.expiresInMs;
      await core.record({
        type: 'approval',
        key,
        callId: call.callId,
        toolName: call.toolName,
        arguments: shown(tool, call.toolArgs),
        requestedAt: now,
        expiresAt: expiresInMs === undefined ? null : now + expiresInMs,
      });
    }
    const pending = pendingApprovalOf(core.runId, core.state.calls.get(key)!);
    return approvalRequiredResult(call, pending!);
  }
}

/** Who a lapsed approval's denial is recorded as decided by. */
export const EXPIRY = 'expiry';

/** The outcome of an attempt that never started (see `isUnstarted`). */
const UNSTARTED: JournaledResult = {
  ok: false,
  status: 'cancelled',
  result: null,
  renderedResult: '',
  observation: '',
  error: 'cancelled before it started',
  errorCategory: 'cancelled',
  executor: null,
  executionDurationMs: null,
};

function outcomeOf(key: string, attempt: number, result: JournaledResult, at: number) {
  return { type: 'outcome' as const, key, attempt, result, at };
}

function denied(call: ToolCallEnvelope, decision: DecisionRecord): ToolCallResult {
  return consentDeniedResult(call, consentOf(decision), {
    layer: JOURNAL_LAYER,
    gate: decision.decidedBy === EXPIRY ? 'approval_unavailable' : 'approval_policy',
  });
}

/** A call whose intent could not be recorded: it does not run. */
function unrecorded(call: ToolCallEnvelope, error: unknown): ToolCallResult {
  return shortCircuitResult(call, {
    status: 'executor_error',
    error: `the run's journal could not record this call, so it did not run: ${errorMessage(error)}`,
    errorCategory: 'executor_error',
    audit: { layers: [{ name: JOURNAL_LAYER, status: 'unrecorded' }] },
  });
}

function ignore(): void {}

function consentOf(decision: DecisionRecord) {
  return {
    decision: decision.decision,
    decidedBy: decision.decidedBy,
    decidedAt: new Date(decision.decidedAt).toISOString(),
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
  };
}

/** Arguments as a journal shows them: without the keys the tool's `safety.redact` lists. */
function shown(tool: AnyTool, args: JsonObject): JsonObject {
  const { redact } = tool.safety;
  return redact.length === 0 ? args : (redactKeys(args, new Set(redact)) as JsonObject);
}
