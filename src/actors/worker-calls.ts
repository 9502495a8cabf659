// Settling calls from what workers post back, kept apart from the pool's scheduling.
import type { ExecutionOutcome, ExecutionRequest } from '../dispatch/executor.js';
import type { ToolCost } from '../tools/tool-cost.js';
import type { CrashBreakers } from './crash-breakers.js';
import { fromErrorData } from './error-data.js';
import { claimUnstarted, type PendingCall } from './worker-batch.js';
import { executorFailure } from './worker-failure.js';
import { isChannelMessage, readOutcome, type WorkerOutcome } from './worker-protocol.js';

/** The pool's sent calls and how each is started, settled or failed before it starts. */
export interface WorkerCalls {
  /** Sent calls not settled, by ticket (for progress and results posted by workers). */
  readonly sent: Map<number, PendingCall>;
  /** Handles a message a worker posted on its port. */
  onMessage(message: unknown): void;
  markStarted(pending: PendingCall): void;
  settle(pending: PendingCall, outcome: ExecutionOutcome): void;
  settleWith(pending: PendingCall, outcome: WorkerOutcome): void;
  stillAdmitted(pending: PendingCall): boolean;
  queueWaitExpired(pending: PendingCall): void;
}

/** Tracks the calls of one pool, which shares its crash breakers and `maxQueueWaitMs`. */
export function createWorkerCalls(
  breakers: CrashBreakers,
  maxQueueWaitMs: number | undefined,
): WorkerCalls {
  const sent = new Map<number, PendingCall>();

  // Starts, progress events and result notices, each worker's on its own port.
  function onMessage(message: unknown): void {
    // A tool module may post on parentPort for reasons of its own: only our messages count.
    if (!isChannelMessage(message)) return;
    if (message.type === 'results') {
      message.tickets.forEach((ticket, index) => {
        const pending = sent.get(ticket);
        const outcome = readOutcome(message.outcomes, index);
        if (pending !== undefined && outcome !== undefined) settleWith(pending, outcome);
      });
      return;
    }
    const pending = sent.get(message.ticket);
    if (pending === undefined) return;
    if (message.type === 'start') {
      markStarted(pending);
      return;
    }
    if (message.type === 'crash') {
      pending.crashCause = `uncaught ${JSON.stringify(message.message)}`;
      return;
    }
    if (message.type === 'done') {
      settleWith(pending, message.outcome);
      return;
    }
    pending.progressSeen += 1;
    if (message.type === 'progress') pending.request.emit(message.progress);
    else addCost(pending.request, message.cost);
    const held = pending.heldOutcome;
    if (held !== undefined && pending.progressSeen >= held.progress)
      settleWith(pending, held.outcome);
  }

  function markStarted(pending: PendingCall): void {
    if (pending.started) return;
    pending.started = true;
    clearTimeout(pending.queueTimer);
    pending.request.started?.();
  }

  function settle(pending: PendingCall, outcome: ExecutionOutcome): void {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.queueTimer);
    if (pending.probe) breakers.probeEnded(pending.call.module);
    if (sent.get(pending.call.ticket) === pending) sent.delete(pending.call.ticket);
    pending.resolve(outcome);
  }

  function settleWith(pending: PendingCall, outcome: WorkerOutcome): void {
    if ('skipped' in outcome || pending.settled) return;
    if (pending.progressSeen < outcome.progress) {
      pending.heldOutcome = { outcome, progress: outcome.progress };
      return;
    }
    breakers.completed(pending.call.module);
    pending.probe = false;
    settle(
      pending,
      outcome.ok
        ? { ok: true, value: outcome.value }
        : { ok: false, error: fromErrorData(outcome.error) },
    );
  }

  /**
   * A call admitted before its module's breaker opened fails fast when it is about to leave,
   * rather than crash one more worker and push the cool-down out; after the cool-down, the first
   * to leave is the probe.
   */
  function stillAdmitted(pending: PendingCall): boolean {
    if (pending.probe || breakers.closed) return true;
    const admission = breakers.admit(pending.call.module);
    if (admission.run) {
      pending.probe = admission.probe;
      return true;
    }
    settle(pending, executorFailure(`the worker pool is unhealthy: ${admission.reason}`));
    return false;
  }

  /** Fails a call that waited `maxQueueWaitMs` without starting. */
  function queueWaitExpired(pending: PendingCall): void {
    if (pending.settled || pending.started) return;
    // In the queue it is dropped by pump(); in a batch it is claimed so the worker skips it.
    if (pending.batch !== undefined && !claimUnstarted(pending)) return;
    const waited = `waited more than maxQueueWaitMs (${maxQueueWaitMs} ms) for a worker`;
    settle(pending, executorFailure(`tool "${pending.call.toolName}" ${waited} and never started`));
  }

  return { sent, onMessage, markStarted, settle, settleWith, stillAdmitted, queueWaitExpired };
}

/**
 * Adds a cost a worker's handler reported. The worker checked it against the attempt's earlier
 * reports; only an earlier attempt's other unit can refuse it here, and then this attempt's units
 * are the ones not counted (its report is the one at odds with the call's).
 */
function addCost(request: ExecutionRequest, cost: ToolCost): void {
  try {
    request.reportCost(cost);
  } catch {
    if (cost.usd !== undefined) request.reportCost({ usd: cost.usd });
  }
}
