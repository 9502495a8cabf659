import { ToolTimeoutError } from 'switchyard';
import type { ExecutionOutcome, ExecutionRequest } from 'switchyard/executors';
import { fromErrorData } from 'switchyard/extension';
import type { JobInspection } from './job-lane.js';
import { CUT_OFF_REASON, type QueueJobResult, STALLED_REASON } from './queue-job.js';

/** An outcome for a call the queue itself failed: it yields `executor_error`. */
export function queueFailure(message: string): ExecutionOutcome {
  return { ok: false, error: new Error(message), executorFailure: { message } };
}

/**
 * An outcome for a call lost in a crash after its job may have started: it yields `in_doubt`,
 * the status a run journal gives a call whose intent has no outcome. Such a call is never run
 * again by the queue; a journaled run stops there until an operator resolves it (or runs it again
 * on resume when its tool is read-only, idempotent or honours its idempotency key).
 */
export function queueInDoubt(message: string): ExecutionOutcome {
  return { ok: false, error: new Error(message), executorFailure: { message, inDoubt: true } };
}

function isJobResult(value: unknown): value is QueueJobResult {
  return (
    typeof value === 'object' && value !== null && typeof (value as QueueJobResult).ok === 'boolean'
  );
}

/**
 * The outcome of a completed job's return value; the handler's error is rebuilt with its class,
 * and what it reported it spent goes to the call's usage.
 */
export function outcomeOfResult(request: ExecutionRequest, value: unknown): ExecutionOutcome {
  const toolName = request.tool.name;
  if (!isJobResult(value)) {
    return queueFailure(`the worker for tool "${toolName}" returned no Switchyard job result`);
  }
  if (value.cost !== undefined) request.reportCost(value.cost);
  if (value.ok) return { ok: true, value: value.value };
  if ('executorFailure' in value) return queueFailure(value.executorFailure);
  return { ok: false, error: fromErrorData(value.error) };
}

/** The outcome of a failed job: the queue gave up on it, so nobody knows how far the tool got. */
export function outcomeOfFailure(toolName: string, failedReason: string): ExecutionOutcome {
  if (failedReason === STALLED_REASON) {
    return queueInDoubt(
      `the worker running tool "${toolName}" stopped mid-call (it died or lost its lock); the tool is neither read-only nor idempotent, so it was not run again and may or may not have taken effect`,
    );
  }
  if (failedReason === CUT_OFF_REASON) {
    return queueInDoubt(
      `the worker running tool "${toolName}" stopped (its shutdown grace limit passed) mid-call; the tool is neither read-only nor idempotent, so it was not run again and may or may not have taken effect`,
    );
  }
  return queueFailure(`the queue failed the job of tool "${toolName}": ${failedReason}`);
}

/** The outcome of a call pending when the executor closed: its job removed unstarted, or running. */
export function closedUnder(toolName: string, removed: boolean): ExecutionOutcome {
  return removed
    ? queueFailure(`the queue executor closed before tool "${toolName}" started`)
    : queueInDoubt(
        `the queue executor closed while tool "${toolName}" ran; it may or may not have finished`,
      );
}

/**
 * The outcome of a job that is no longer in Redis (a restart without persistence, a removal):
 * whether it ran is not known, so the call is in doubt.
 */
export function lostJob(toolName: string): ExecutionOutcome {
  return queueInDoubt(
    `the job of tool "${toolName}" vanished from Redis (a restart without persistence, an eviction or a removal); the tool may or may not have run`,
  );
}

/** The outcome a job's stored state settles its call with; undefined while it waits or runs. */
export function outcomeOfInspection(
  request: ExecutionRequest,
  seen: JobInspection,
): ExecutionOutcome | undefined {
  const toolName = request.tool.name;
  if (seen.state === 'completed') return outcomeOfResult(request, seen.returnvalue);
  if (seen.state === 'failed') return outcomeOfFailure(toolName, seen.failedReason);
  if (seen.state === 'unknown') return lostJob(toolName);
  return undefined;
}

/**
 * Whether a finished job's outcome is the worker's own timeout of this tool, which the dispatcher's
 * time limit (the same `timeoutMs`, started a little later) and its abort will end too.
 */
export function isOwnTimeout(request: ExecutionRequest, outcome: ExecutionOutcome): boolean {
  return (
    !outcome.ok &&
    outcome.executorFailure === undefined &&
    ToolTimeoutError.isInstance(outcome.error) &&
    outcome.error.toolName === request.tool.name &&
    request.tool.timeoutMs !== undefined &&
    request.abortable
  );
}
