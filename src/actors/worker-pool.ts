import { Piscina } from 'piscina';
import type { ExecutionOutcome, ExecutionRequest, Executor } from '../dispatch/executor.js';
import { CrashBreakers } from './crash-breakers.js';
import { FifoQueue } from './fifo-queue.js';
import { nextCalls } from './next-calls.js';
import { type PendingCall, packBatch, pendingCall, type SentBatch } from './worker-batch.js';
import { createWorkerCalls } from './worker-calls.js';
import { describeFailure, executorFailure, exitCodeOf, lostCallReason } from './worker-failure.js';
import {
  closeWithin,
  piscinaOptions,
  poolSettings,
  type WorkerPool,
  type WorkerPoolOptions,
} from './worker-pool-options.js';
import {
  readOutcome,
  SLOT_DONE,
  SLOT_QUEUED,
  SLOT_RUNNING,
  SLOT_SKIPPED,
} from './worker-protocol.js';
import { workerTarget } from './worker-target.js';

export type { WorkerPool, WorkerPoolOptions };

/**
 * Starts a pool of worker threads (Piscina) that runs the handlers of tools declared with
 * `executor: { kind: 'worker', module, export }`. Queued calls travel to a worker several per
 * message, which keeps small CPU tools cheap. A slow or hung call holds up only itself: the
 * results of its batch-mates that finished come back within a few milliseconds even while it runs
 * (or blocks its thread for good), and a thread that comes free takes over the calls queued
 * behind it, before newer ones, once another batch has come back meanwhile. With one thread, or as
 * many hung calls as threads, the calls behind wait for a thread: bound that with a tool's
 * `timeoutMs` or `maxQueueWaitMs`. A call that times out or is cancelled while it runs is really
 * stopped: its worker is terminated and replaced. Faults stay contained: a crashed worker (exit,
 * uncaught throw, out of memory) fails only the call it was running (`executor_error` with the
 * exit code); calls of its batch that had finished keep their results, and those that had not
 * started are sent again. A tool module whose calls keep crashing workers (`crashLimit` in a row)
 * fails fast for `crashCooldownMs`, its queued calls too, so no further worker dies meanwhile;
 * then the first of its calls to leave is a probe, and a probe that completes closes the breaker.
 *
 * @param options threads, batching, crash breakers, queue and close limits: see
 *   `WorkerPoolOptions` (defaults there). Throws `InvalidOptionError` naming a bad option.
 * @returns the pool: its executor, health, counters and `close()`.
 *
 * @example
 * const pool = createWorkerPool({ maxThreads: 4, maxQueueWaitMs: 60_000 });
 * const dispatcher = createDispatcher({ registry, executors: [pool.executor] });
 * // … later
 * await pool.close();
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const { maxThreads, maxBatch, crashLimit, crashCooldownMs, closeTimeoutMs, maxQueueWaitMs } =
    poolSettings(options);
  const piscina = new Piscina(piscinaOptions(options, maxThreads));

  /** Calls not sent yet, oldest first. */
  const queue = new FifoQueue<PendingCall>();
  /** Batches sent and not come back, which idle threads may take unstarted calls from. */
  const inFlight = new Set<SentBatch>();
  let nextTicket = 0;
  /** Batches that came back, done or failed: the clock `stealFromStalled` tells progress by. */
  let batchesBack = 0;
  let closed = false;
  const breakers = new CrashBreakers({
    limit: crashLimit,
    cooldownMs: crashCooldownMs,
    now: Date.now,
  });
  const stats = { calls: 0, batches: 0, crashes: 0, terminations: 0 };
  const { sent, onMessage, markStarted, settle, settleWith, stillAdmitted, queueWaitExpired } =
    createWorkerCalls(breakers, maxQueueWaitMs);

  // Starts, progress events and result notices, each worker's on its own port.
  piscina.on('message', onMessage);

  /** Fills free threads with what they should run next. */
  function pump(): void {
    while (inFlight.size < maxThreads) {
      const next = nextCalls({
        queue,
        inFlight,
        maxBatch,
        maxThreads,
        closing: closed,
        batchesBack,
      });
      if (next === null) return;
      const members = next.filter(stillAdmitted);
      if (members.length > 0) send(members);
    }
  }

  function send(members: PendingCall[]): void {
    stats.batches += 1;
    const batch = packBatch(members);
    inFlight.add(batch);
    for (const pending of members) {
      pending.batch = batch;
      sent.set(pending.call.ticket, pending);
    }
    // A lone call starts as it arrives; calls of a batch say when they start, when timed.
    if (members.length === 1) markStarted(members[0]!);
    const { controller } = batch;
    piscina
      .run(batch.message, controller === undefined ? undefined : { signal: controller.signal })
      .then(
        (result: unknown) => {
          for (let slot = 0; slot < members.length; slot += 1) {
            const pending = members[slot]!;
            const outcome = readOutcome(result, slot);
            if (outcome !== undefined && pending.batch === batch) settleWith(pending, outcome);
          }
          finishBatch(batch);
        },
        (error: unknown) => {
          batchFailed(batch, error);
          finishBatch(batch);
        },
      );
  }

  function finishBatch(batch: SentBatch): void {
    inFlight.delete(batch);
    batchesBack += 1;
    pump();
  }

  /** The worker died or was terminated: fail the call it ran, keep or resend the others. */
  function batchFailed(batch: SentBatch, error: unknown): void {
    const aborted = batch.controller?.signal.aborted === true;
    const exitCode = exitCodeOf(error);
    const cause = describeFailure(error);
    batch.members.forEach((pending, index) => {
      if (pending.settled || pending.batch !== batch) return;
      const state = batch.slots === undefined ? SLOT_RUNNING : Atomics.load(batch.slots, index);
      if (state === SLOT_QUEUED || state === SLOT_SKIPPED) {
        sent.delete(pending.call.ticket);
        pending.batch = undefined;
        requeue(pending);
        return;
      }
      if (state === SLOT_RUNNING && !aborted && !closed) {
        stats.crashes += 1;
        breakers.crashed(pending.call.module, cause);
        pending.probe = false;
      }
      const why = closed ? 'closed' : aborted ? 'stopped' : 'crashed';
      const reason = lostCallReason(why, pending.call.toolName, pending.crashCause ?? cause);
      const lost = state === SLOT_DONE ? ' (its result was lost with the worker)' : '';
      settle(pending, executorFailure(`${reason}${lost}`, exitCode));
    });
  }

  function requeue(pending: PendingCall): void {
    const admission = closed ? undefined : breakers.admit(pending.call.module);
    if (admission?.run === true) {
      pending.probe = admission.probe;
      queue.push(pending);
    } else {
      settle(pending, executorFailure(admission?.reason ?? 'the worker pool is closed'));
    }
  }

  /** Stops a call: skip it if it has not started, else terminate the worker running it. */
  function abortCall(pending: PendingCall): void {
    const batch = pending.batch;
    settle(pending, { ok: false, error: pending.request.signal.reason });
    if (batch === undefined) return; // still queued: pump() drops settled calls
    if (batch.slots !== undefined) {
      const slot = batch.members.indexOf(pending);
      if (Atomics.compareExchange(batch.slots, slot, SLOT_QUEUED, SLOT_SKIPPED) === SLOT_QUEUED)
        return;
      if (Atomics.load(batch.slots, slot) === SLOT_DONE) return;
    }
    stats.terminations += 1;
    batch.controller?.abort();
  }

  const executor: Executor = {
    name: 'worker',
    timesExecution: true,
    execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
      if (closed)
        return Promise.resolve(
          executorFailure('the worker pool is closed and takes no more calls'),
        );
      const tool = request.tool;
      const target = workerTarget(tool);
      if (target === undefined) {
        return Promise.resolve(
          executorFailure(`tool "${tool.name}" is not declared with a worker executor`),
        );
      }
      const admission = breakers.admit(target.module);
      if (!admission.run)
        return Promise.resolve(
          executorFailure(`the worker pool is unhealthy: ${admission.reason}`),
        );
      stats.calls += 1;
      const ticket = nextTicket++;
      return new Promise<ExecutionOutcome>((resolve) => {
        const pending = pendingCall(request, target, ticket, resolve);
        pending.probe = admission.probe;
        if (request.abortable) {
          if (request.signal.aborted) {
            settle(pending, { ok: false, error: request.signal.reason });
            return;
          }
          request.whenAborted().catch(() => abortCall(pending));
        }
        if (maxQueueWaitMs !== undefined)
          pending.queueTimer = setTimeout(queueWaitExpired, maxQueueWaitMs, pending);
        // An idle pool posts a lone call at once; calls that find the threads busy wait and
        // leave together, several per message, when a batch comes back.
        if (queue.size === 0 && inFlight.size < maxThreads) send([pending]);
        else {
          queue.push(pending);
          pump();
        }
      });
    },
  };

  return {
    executor,
    get healthy() {
      return breakers.closed;
    },
    stats,
    async close() {
      closed = true;
      for (let pending = queue.shift(); pending !== undefined; pending = queue.shift()) {
        settle(pending, executorFailure('the worker pool closed before the call started'));
      }
      await closeWithin(piscina, closeTimeoutMs);
    },
  };
}
