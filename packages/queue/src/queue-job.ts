import type { JsonObject } from 'switchyard';
import type { ExecutionRequest } from 'switchyard/executors';
import type { ErrorData } from 'switchyard/extension';
import type { AnyTool, ToolCost, ToolTurnFacts } from 'switchyard/tools';

/**
 * What a call's job carries to a worker: plain JSON. Hidden values (context, stores, secrets)
 * never travel through Redis; a worker hands its own to the tools that ask for them.
 */
export interface QueueJobData {
  /** The tool's canonical name. */
  readonly tool: string;
  readonly args: JsonObject;
  /** The model's call id (the job id adds a nonce to it: see `jobIdFor`). */
  readonly callId: string;
  readonly turn: ToolTurnFacts;
  /** The tool's time limit on the dispatcher's side; the worker aborts the handler at it too. */
  readonly timeoutMs?: number;
  /** The key a run journal gave the call, handed to the handler's runtime on the worker. */
  readonly idempotencyKey?: string;
}

/**
 * A job's return value: what the handler did, as data. A tool that threw completes its job with
 * `ok: false` (its error travels as `ErrorData` and is rebuilt with its class and code); a job
 * fails only when the queue itself gave up on it (a dead worker, a cancellation).
 */
export type QueueJobResult = (
  | { readonly ok: true; readonly value?: unknown }
  | { readonly ok: false; readonly error: ErrorData }
  | { readonly ok: false; readonly executorFailure: string }
) & {
  /** What the handler reported it spent (`runtime.reportCost`), summed; absent when nothing. */
  readonly cost?: ToolCost;
};

/** The job data of a call: its tool, arguments, call id, turn facts and time limit. */
export function jobDataOf(request: ExecutionRequest): QueueJobData {
  const { tool, turn } = request;
  const { iteration, sessionId, runId, emitOrder } = turn;
  return {
    tool: tool.name,
    args: request.args,
    callId: request.callId,
    turn: { iteration, sessionId, runId, emitOrder },
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
  };
}

/**
 * Whether a call may run again when its worker dies mid-call. Each class has a BullMQ queue of its
 * own, because stalled-job recovery (`maxStalledCount`) is a setting of the workers of a queue:
 * `rerun` jobs go back to the wait list, `once` jobs fail (`maxStalledCount: 0`).
 */
export type SafetyClass = 'rerun' | 'once';

/** `rerun` for read-only or idempotent tools, `once` for every other. */
export function safetyClassOf(tool: AnyTool): SafetyClass {
  return tool.safety.readOnly || tool.safety.idempotent ? 'rerun' : 'once';
}

/** The BullMQ queue of a base name and a safety class, e.g. `switchyard.once`. */
export function queueNameFor(base: string, safetyClass: SafetyClass): string {
  return `${base}.${safetyClass}`;
}

/** The pub/sub channel on which dispatchers ask the workers of `base` to stop a running job. */
export function cancelChannelOf(prefix: string, base: string): string {
  return `${prefix}:${base}:switchyard-cancel`;
}

/**
 * A job id for one execution of a call: the call id (made safe: BullMQ refuses `:` and plain
 * integers), then `~` and a nonce unique to this execution. Not the bare call id, because BullMQ
 * dedupes custom ids: adding an id it still holds returns the old job and runs nothing, and call
 * ids repeat (scripted and text-mode models number calls per turn; a retry is the same call).
 */
export function jobIdFor(callId: string, nonce: string): string {
  const safe = callId.replace(/[^\w.-]/g, '_').slice(0, 120);
  return `${safe}~${nonce}`;
}

/** The message of a job the queue failed after its worker died (BullMQ's stalled-job limit). */
export const STALLED_REASON = 'job stalled more than allowable limit';

/**
 * The message of a run-once job its worker failed at its shutdown grace limit: the tool was cut off
 * mid-call, so it is not run again.
 */
export const CUT_OFF_REASON = 'the worker stopped at its shutdown grace limit while the job ran';
