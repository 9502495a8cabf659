import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { JournaledResult, ResolutionRecord } from './journal-record.js';
import type { PendingApproval } from './journal-views.js';

/** The name a journal's answers carry on `audit.layers`. */
export const JOURNAL_LAYER = 'journal';

/** Why a call in doubt is not run again. */
export const IN_DOUBT_ERROR =
  'this call was started before the run stopped, and whether it took effect is not known; its tool is neither read-only nor idempotent, so it is not run again until an operator resolves it';

/** A completed call's recorded result, handed back without running it. */
export function replayedResult(call: ToolCallEnvelope, recorded: JournaledResult): ToolCallResult {
  return {
    ...recorded,
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    emitOrder: call.turn.emitOrder,
    audit: { layers: [{ name: JOURNAL_LAYER, status: 'replayed' }] },
  };
}

/** A call whose earlier run may or may not have taken effect: not run. */
export function inDoubtResult(call: ToolCallEnvelope, error = IN_DOUBT_ERROR): ToolCallResult {
  return shortCircuitResult(call, {
    status: 'in_doubt',
    error,
    errorCategory: 'in_doubt',
    observation: `[in doubt: ${call.toolName}]\n${error}`,
    audit: { layers: [{ name: JOURNAL_LAYER, status: 'in_doubt' }] },
  });
}

/** A call that waits for a decision; `approval` is the pending approval, as data. */
export function approvalRequiredResult(
  call: ToolCallEnvelope,
  approval: PendingApproval,
): ToolCallResult {
  const error = `this call waits for approval (${call.toolName}, call ${call.callId}); the run stops here and goes on once it is approved or denied`;
  return shortCircuitResult(call, {
    status: 'approval_required',
    error,
    errorCategory: 'approval_required',
    observation: `[approval required: ${call.toolName}]\n${error}`,
    approval,
    audit: { layers: [{ name: JOURNAL_LAYER, status: 'approval_required' }] },
  });
}

/** What an operator's `done` or `abandon` of an in-doubt call answers it with. */
export function resolvedResult(
  call: ToolCallEnvelope,
  resolution: ResolutionRecord,
): ToolCallResult {
  const note = resolution.note === undefined ? '' : `: ${resolution.note}`;
  const audit = {
    layers: [{ name: JOURNAL_LAYER, status: resolution.resolution, by: resolution.resolvedBy }],
  };
  if (resolution.resolution === 'done') {
    const text = `an operator (${resolution.resolvedBy}) confirmed this call took effect${note}`;
    return shortCircuitResult(call, {
      status: 'ok',
      ok: true,
      result: resolution.note ?? null,
      renderedResult: text,
      observation: text,
      audit,
    });
  }
  const error = `an operator (${resolution.resolvedBy}) abandoned this call: it was not run again and may not have taken effect${note}`;
  return shortCircuitResult(call, {
    status: 'abandoned',
    error,
    errorCategory: 'abandoned',
    observation: `[abandoned: ${call.toolName}]\n${error}`,
    audit,
  });
}
