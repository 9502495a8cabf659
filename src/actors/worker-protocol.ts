import type { ToolCost } from '../tools/tool-cost.js';
import type { ToolProgress, ToolTurnFacts } from '../tools/tool-spec.js';
import type { ErrorData } from './error-data.js';

/** One call as it crosses into a worker: plain, structured-clonable data only. */
export interface WorkerCall {
  /** The pool's own id of this call (call ids from models may repeat). */
  readonly ticket: number;
  readonly callId: string;
  readonly toolName: string;
  /** `file:` URL of the module exporting the handler. */
  readonly module: string;
  readonly exportName: string;
  readonly args: unknown;
  readonly turn: ToolTurnFacts;
  /** The key a journal set for the call; null: the worker derives it from the turn facts. */
  readonly idempotencyKey: string | null;
}

/** Values a tool asked for through `injected`; they travel beside the calls, never inside them. */
export interface HiddenValues {
  readonly context?: unknown;
  readonly secrets?: Readonly<Record<string, string>>;
}

/** What a worker receives per message: a batch of calls run one after another. */
export interface WorkerBatch {
  /**
   * The calls, `CALL_FIELDS` entries each (see `pushCall`); a call's slot is its position. One flat
   * array of primitives and argument objects clones several times faster than an object per call
   * or a JSON string, so a lone call costs about what a raw Piscina task does.
   */
  readonly calls: readonly unknown[];
  /** Per call, the injected context and secrets (structured-cloned), when any call has them. */
  readonly hidden?: readonly (HiddenValues | null)[];
  /**
   * Post each call's start and result as they happen (batches that may be terminated midway, whose
   * calls' time limits count from their start).
   */
  readonly notify?: true;
  /**
   * One Int32 per call, shared with the main thread (batches of several calls only): `SLOT_QUEUED`
   * until the worker claims it (`SLOT_RUNNING`), then `SLOT_DONE`; the main thread may claim a
   * queued slot with `SLOT_SKIPPED` so the call never starts. Compare-and-swap makes both exact.
   */
  readonly slots?: SharedArrayBuffer;
}

/**
 * What crosses into a worker: a batch, or just its call list when the batch carries nothing else
 * (the common case). Every object in a message costs a few hundred nanoseconds to clone, about as
 * much as a whole raw Piscina task, so the wrapper is left out when it would hold the calls alone.
 */
export type WorkerMessage = WorkerBatch | readonly unknown[];

/** The batch a message stands for. */
export function batchOf(message: WorkerMessage): WorkerBatch {
  return isCallList(message) ? { calls: message } : message;
}

function isCallList(message: WorkerMessage): message is readonly unknown[] {
  return Array.isArray(message);
}

export const SLOT_QUEUED = 0;
export const SLOT_RUNNING = 1;
export const SLOT_DONE = 2;
export const SLOT_SKIPPED = 3;

/** Entries per call in `WorkerBatch.calls`. */
export const CALL_FIELDS = 11;

/** Appends a call to a batch's flat call list. */
export function pushCall(calls: unknown[], call: WorkerCall): void {
  const { turn } = call;
  calls.push(
    call.ticket,
    call.callId,
    call.toolName,
    call.module,
    call.exportName,
    call.args,
    turn.iteration,
    turn.sessionId,
    turn.runId,
    turn.emitOrder,
    call.idempotencyKey,
  );
}

/** Reads back the call in `slot` of a batch's flat call list. */
export function readCall(calls: readonly unknown[], slot: number): WorkerCall {
  const at = slot * CALL_FIELDS;
  return {
    ticket: calls[at] as number,
    callId: calls[at + 1] as string,
    toolName: calls[at + 2] as string,
    module: calls[at + 3] as string,
    exportName: calls[at + 4] as string,
    args: calls[at + 5],
    turn: {
      iteration: calls[at + 6] as number,
      sessionId: calls[at + 7] as string,
      runId: calls[at + 8] as string | null,
      emitOrder: calls[at + 9] as number,
    },
    idempotencyKey: calls[at + 10] as string | null,
  };
}

/**
 * What one call produced. `progress` counts the progress and cost messages the call posted: the
 * main thread settles the call only once it has seen them all, because the channel they travel on
 * and the result are not ordered with each other.
 */
export type WorkerOutcome =
  | { readonly ok: true; readonly value: unknown; readonly progress: number }
  | { readonly ok: false; readonly error: ErrorData; readonly progress: number }
  | { readonly ok: false; readonly skipped: true };

/** Entries per call in a batch's flat outcome list: a kind, the value or error, the progress count. */
const OUTCOME_FIELDS = 3;
const OUTCOME_OK = 0;
const OUTCOME_ERROR = 1;
const OUTCOME_SKIPPED = 2;

/**
 * Appends an outcome to the flat list a worker returns for its batch (in slot order). Flat for the
 * same reason as the calls: it clones back several times faster than an object per call.
 */
export function pushOutcome(outcomes: unknown[], outcome: WorkerOutcome): void {
  if ('skipped' in outcome) outcomes.push(OUTCOME_SKIPPED, null, 0);
  else if (outcome.ok) outcomes.push(OUTCOME_OK, outcome.value, outcome.progress);
  else outcomes.push(OUTCOME_ERROR, outcome.error, outcome.progress);
}

/**
 * What a worker returns for its batch: the flat outcome list, except for the common case of a lone
 * call that succeeded without progress events, whose value travels bare. That saves cloning one
 * more array each way per lone call. Arrays (which could be mistaken for the list) and thenables
 * (which Piscina would await) stay inside the list.
 */
export function batchResult(outcomes: unknown[]): unknown {
  if (outcomes.length !== OUTCOME_FIELDS || outcomes[0] !== OUTCOME_OK || outcomes[2] !== 0)
    return outcomes;
  const value = outcomes[1];
  const bare = !Array.isArray(value) && typeof (value as { then?: unknown })?.then !== 'function';
  return bare ? value : outcomes;
}

/**
 * Marks the outcome of `slot` as already posted (a `results` message carried it), so the batch's
 * result does not clone it again and the main thread does not settle its call twice.
 */
export function markPosted(outcomes: unknown[], slot: number): void {
  const at = slot * OUTCOME_FIELDS;
  outcomes[at] = OUTCOME_SKIPPED;
  outcomes[at + 1] = null;
}

/** Outcomes in a flat outcome list so far. */
export function countOutcomes(outcomes: readonly unknown[]): number {
  return outcomes.length / OUTCOME_FIELDS;
}

/** Reads back the outcome of `slot` from a batch's result; undefined when it stops short of it. */
export function readOutcome(result: unknown, slot: number): WorkerOutcome | undefined {
  if (!Array.isArray(result))
    return slot === 0 ? { ok: true, value: result, progress: 0 } : undefined;
  const outcomes: readonly unknown[] = result;
  const at = slot * OUTCOME_FIELDS;
  if (at >= outcomes.length) return undefined;
  const progress = outcomes[at + 2] as number;
  switch (outcomes[at]) {
    case OUTCOME_OK:
      return { ok: true, value: outcomes[at + 1], progress };
    case OUTCOME_ERROR:
      return { ok: false, error: outcomes[at + 1] as ErrorData, progress };
    default:
      return { ok: false, skipped: true };
  }
}

/**
 * Messages a worker posts to the main thread on its own port (`parentPort`, which Piscina hands
 * on as the pool's `message` event), keyed by the pool's ticket of each call.
 */
export type ChannelMessage =
  | { readonly type: 'progress'; readonly ticket: number; readonly progress: ToolProgress }
  /** A cost the handler reported (checked in the worker); counted with the progress messages. */
  | { readonly type: 'cost'; readonly ticket: number; readonly cost: ToolCost }
  | { readonly type: 'done'; readonly ticket: number; readonly outcome: WorkerOutcome }
  /**
   * Outcomes of a batch's finished calls posted before the batch ends, so that a call still
   * running (slow, hung, blocking its thread) holds up only itself: `outcomes` is a flat outcome
   * list (see `pushOutcome`), one entry per ticket, in order.
   */
  | {
      readonly type: 'results';
      readonly tickets: readonly number[];
      readonly outcomes: readonly unknown[];
    }
  /** The call left its batch's queue and its handler starts (batches with `notify` only). */
  | { readonly type: 'start'; readonly ticket: number }
  /** Something the call started threw where nothing caught it: the worker exits next. */
  | { readonly type: 'crash'; readonly ticket: number; readonly message: string };

/** True for a message the worker entry posted, as opposed to anything a tool module posts. */
export function isChannelMessage(message: unknown): message is ChannelMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, ticket, tickets, outcomes } = message as Record<string, unknown>;
  if (type === 'results') return Array.isArray(tickets) && Array.isArray(outcomes);
  return (
    (type === 'progress' ||
      type === 'cost' ||
      type === 'done' ||
      type === 'start' ||
      type === 'crash') &&
    typeof ticket === 'number'
  );
}
