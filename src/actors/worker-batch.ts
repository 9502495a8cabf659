import type { ExecutionOutcome, ExecutionRequest } from '../dispatch/executor.js';
import {
  type HiddenValues,
  pushCall,
  SLOT_DONE,
  SLOT_QUEUED,
  SLOT_SKIPPED,
  type WorkerBatch,
  type WorkerCall,
  type WorkerMessage,
  type WorkerOutcome,
} from './worker-protocol.js';
import type { WorkerTarget } from './worker-target.js';

/** A call waiting in or sent by the pool. */
export interface PendingCall {
  readonly request: ExecutionRequest;
  /** The call as it crosses into a worker; `call.ticket` is the pool's id of it. */
  readonly call: WorkerCall;
  readonly hidden: HiddenValues | null;
  settled: boolean;
  /** Progress messages received so far. */
  progressSeen: number;
  /** The call's outcome, held until its last progress message arrives. */
  heldOutcome?: { readonly outcome: WorkerOutcome; readonly progress: number };
  resolve(outcome: ExecutionOutcome): void;
  /** The batch that carries the call, once sent. */
  batch?: SentBatch | undefined;
  /** The call's handler started (its time limit runs from then). */
  started: boolean;
  /** What the call threw where nothing caught it, killing its worker. */
  crashCause?: string;
  /** The call is the probe of its module's open crash breaker. */
  probe: boolean;
  /** Fails the call if it waits too long for a worker (`maxQueueWaitMs`). */
  queueTimer?: ReturnType<typeof setTimeout> | undefined;
}

/** The pool's record of a new call: what crosses into the worker, and how the call settles. */
export function pendingCall(
  request: ExecutionRequest,
  target: WorkerTarget,
  ticket: number,
  resolve: (outcome: ExecutionOutcome) => void,
): PendingCall {
  const call: WorkerCall = {
    ticket,
    callId: request.callId,
    toolName: request.tool.name,
    module: target.module,
    exportName: target.exportName,
    args: request.args,
    turn: request.turn,
    idempotencyKey: request.idempotencyKey ?? null,
  };
  // Injected values travel beside the calls (structured-cloned), only for tools that list them.
  const hidden =
    target.context || target.secrets
      ? {
          ...(target.context ? { context: request.values.context } : {}),
          ...(target.secrets ? { secrets: request.values.secrets } : {}),
        }
      : null;
  return {
    request,
    call,
    hidden,
    settled: false,
    progressSeen: 0,
    resolve,
    started: false,
    probe: false,
  };
}

/** Calls sent to a worker in one message. */
export interface SentBatch {
  /** The calls in slot order. */
  readonly members: readonly PendingCall[];
  readonly message: WorkerMessage;
  /** Terminates the batch's worker (batches with a call that can be cancelled only). */
  readonly controller: AbortController | undefined;
  /** Shared per-call slots (batches of several calls only). */
  readonly slots: Int32Array | undefined;
  /**
   * What `stealFromStalled` saw last: calls of the batch done, and how many batches of the pool
   * had come back by then.
   */
  look?: { readonly done: number; readonly batchesBack: number };
}

/**
 * Packs calls into one worker message. A lone call, or a batch no call of which can be cancelled,
 * carries nothing but the calls: shared slots, result notices and an abort controller are paid
 * for only where a call may have to be stopped midway or skipped.
 */
export function packBatch(members: readonly PendingCall[]): SentBatch {
  const calls: unknown[] = [];
  let abortable = false;
  let hidden: (HiddenValues | null)[] | undefined;
  for (const pending of members) {
    pushCall(calls, pending.call);
    if (pending.request.abortable) abortable = true;
    if (pending.hidden !== null) hidden ??= [];
  }
  if (hidden !== undefined) for (const pending of members) hidden.push(pending.hidden);
  const slots =
    members.length > 1 ? new Int32Array(new SharedArrayBuffer(4 * members.length)) : undefined;
  let message: WorkerMessage = calls;
  if (hidden !== undefined || slots !== undefined) {
    // Keys are set only when present: structured clone copies every key, undefined or not.
    const batch: { -readonly [Key in keyof WorkerBatch]: WorkerBatch[Key] } = { calls };
    if (hidden !== undefined) batch.hidden = hidden;
    if (slots !== undefined) {
      batch.slots = slots.buffer as SharedArrayBuffer;
      // Per-call result notices survive a termination of the worker midway through the batch.
      if (abortable) batch.notify = true;
    }
    message = batch;
  }
  return {
    members,
    message,
    controller: abortable ? new AbortController() : undefined,
    slots,
  };
}

/**
 * Takes back up to half (rounded up) of a batch's calls that have not started, from its end, so an
 * idle thread can run them: a batch stuck behind a slow or hung call does not hold its other calls.
 * Compare-and-swap on the shared slots makes each take exact: the worker skips a taken call.
 */
export function stealQueued(batch: SentBatch): PendingCall[] {
  const { slots, members } = batch;
  if (slots === undefined) return [];
  let queued = 0;
  for (let slot = 0; slot < members.length; slot += 1) {
    if (Atomics.load(slots, slot) === SLOT_QUEUED && !members[slot]!.settled) queued += 1;
  }
  const stolen: PendingCall[] = [];
  const wanted = Math.ceil(queued / 2);
  for (let slot = members.length - 1; slot >= 0 && stolen.length < wanted; slot -= 1) {
    const pending = members[slot]!;
    if (pending.settled || pending.batch !== batch) continue;
    if (Atomics.compareExchange(slots, slot, SLOT_QUEUED, SLOT_SKIPPED) !== SLOT_QUEUED) continue;
    pending.batch = undefined;
    stolen.push(pending);
  }
  return stolen.reverse();
}

/** True when a call of a sent batch has not started and can no longer start (it was claimed). */
export function claimUnstarted(pending: PendingCall): boolean {
  const batch = pending.batch;
  if (batch?.slots === undefined) return false;
  const slot = batch.members.indexOf(pending);
  return Atomics.compareExchange(batch.slots, slot, SLOT_QUEUED, SLOT_SKIPPED) === SLOT_QUEUED;
}

/**
 * Unstarted calls taken over from the first batch in flight that has finished no call since the
 * last look while another batch came back (`batchesBack` grew): its running call is slow or hung,
 * and the calls behind it were queued before anything still in the pool's queue.
 */
export function stealFromStalled(batches: Iterable<SentBatch>, batchesBack: number): PendingCall[] {
  for (const batch of batches) {
    const { slots } = batch;
    if (slots === undefined) continue;
    let done = 0;
    for (let slot = 0; slot < slots.length; slot += 1) {
      if (Atomics.load(slots, slot) === SLOT_DONE) done += 1;
    }
    const last = batch.look;
    batch.look = { done, batchesBack };
    if (last === undefined || last.done !== done || last.batchesBack === batchesBack) continue;
    const stolen = stealQueued(batch);
    if (stolen.length > 0) return stolen;
  }
  return [];
}

/** The unstarted calls an idle thread takes over from the first batch in flight that has any. */
export function stealFromAny(batches: Iterable<SentBatch>): PendingCall[] {
  for (const batch of batches) {
    const stolen = stealQueued(batch);
    if (stolen.length > 0) return stolen;
  }
  return [];
}
