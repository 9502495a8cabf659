import type { Next, ToolCallEnvelope, ToolCaller } from 'switchyard';
import { shortCircuitResult, type ToolCallResult } from 'switchyard';
import { canonicalHash } from 'switchyard/tools';
import type { JournalCallRecord, JournaledResult, TaskJournal } from './task-journal.js';

/** Why a call that an earlier run started, and never finished, is not run again. */
export const INTERRUPTED_CALL_ERROR =
  'an earlier run of this task was stopped while this call executed, so it may have taken effect; the tool is neither read-only nor idempotent, so it is not run again';

function journaled(result: ToolCallResult): JournaledResult {
  return {
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
}

/** What identifies a call across runs: its tool and canonical arguments (ids may differ). */
function keyOf(call: ToolCallEnvelope): string {
  return `${call.toolName}:${canonicalHash(call.toolArgs)}`;
}

/**
 * The innermost layer of a batch task: journals each call before it executes (`call_started`)
 * and after (`call_completed`, with its result). When the task resumes, a call that matches a
 * journaled one (same tool and arguments, the n-th such call matching the n-th record) is not
 * executed again: a completed one returns its recorded result (`audit.resumed`), and one that
 * was started but never finished is run again only when its tool is read-only or idempotent;
 * otherwise it returns an `executor_error` result saying why. `onResumed` hears of each.
 */
export function withResumeJournal(
  journal: TaskJournal,
  onResumed?: (how: 'completed' | 'refused') => void,
): ToolCaller {
  /** Earlier runs' calls by key, oldest first; each is matched once. */
  const earlier = new Map<string, JournalCallRecord[]>();
  for (const record of journal.calls) {
    const list = earlier.get(record.key);
    if (list === undefined) earlier.set(record.key, [record]);
    else list.push(record);
  }
  return async function with_resume_journal(
    call: ToolCallEnvelope,
    next: Next,
  ): Promise<ToolCallResult> {
    if (!call.validation.valid) return next(call);
    const key = keyOf(call);
    const record = earlier.get(key)?.shift();
    if (record?.result !== undefined) {
      onResumed?.('completed');
      return {
        ...record.result,
        toolName: call.toolName,
        toolCallId: call.callId,
        arguments: call.toolArgs,
        emitOrder: call.turn.emitOrder,
        audit: { resumed: 'completed_in_earlier_run' },
      };
    }
    const safety = call.annotations.safety;
    if (record !== undefined && safety?.readOnly !== true && safety?.idempotent !== true) {
      onResumed?.('refused');
      journal.write({
        type: 'call_completed',
        key,
        // Completes the earlier run's record, so a later resume matches it the same way.
        callId: record.callId,
        result: journaled(
          shortCircuitResult(call, { status: 'executor_error', error: INTERRUPTED_CALL_ERROR }),
        ),
      });
      return shortCircuitResult(call, {
        status: 'executor_error',
        error: INTERRUPTED_CALL_ERROR,
        audit: { resumed: 'interrupted_not_rerun' },
      });
    }
    journal.write({ type: 'call_started', key, callId: call.callId });
    const result = await next(call);
    // A cancelled call may have been part-way through: it stays started, never completed.
    if (result.status !== 'cancelled') {
      journal.write({
        type: 'call_completed',
        key,
        callId: call.callId,
        result: journaled(result),
      });
    }
    return result;
  };
}
