import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExecutionOutcome, ExecutionRequest, Executor } from '../dispatch/executor.js';
import { checkPositive } from '../option-checks.js';
import { FifoQueue } from './fifo-queue.js';
import { type PendingCall, packBatch, pendingCall, type SentBatch } from './worker-batch.js';
import { describeFailure, executorFailure, exitCodeOf } from './worker-failure.js';
import {
  fromErrorData,
  isChannelMessage,
  readOutcome,
  SLOT_DONE,
  SLOT_QUEUED,
  SLOT_SKIPPED,
  type WorkerOutcome,
} from './worker-protocol.js';
import { workerTarget } from './worker-target.js';

export interface WorkerPoolOptions {
  /** Threads kept alive. Default 1. */
  readonly minThreads?: number;
  /** Most threads. Default: the machine's available parallelism. */
  readonly maxThreads?: number;
  /** Idle threads above `minThreads` exit after this long. Default 30 000 ms. */
  readonly idleTimeoutMs?: number;
  /** V8 heap and stack limits of each worker (an out-of-memory worker fails only its own call). */
  readonly resourceLimits?: ResourceLimits;
  /** Node options of the workers, e.g. `['--import', 'tsx']` to load TypeScript tool modules. */
  readonly execArgv?: readonly string[];
  /** Most queued calls sent to a worker in one message. Default 128. */
  readonly maxBatch?: number;
  /** Consecutive worker crashes, with no call completing in between, that mark the pool unhealthy. Default 5. */
  readonly crashLimit?: number;
}

/** A pool of worker threads running tool handlers, exposed as an executor. */
export interface WorkerPool {
  /** Pass to `createDispatcher({ executors: [pool.executor] })`. */
  readonly executor: Executor;
  /** False once workers kept dying; calls then fail fast with `executor_error`. */
  readonly healthy: boolean;
  readonly stats: Readonly<{
    calls: number;
    batches: number;
    crashes: number;
    terminations: number;
  }>;
  /** Refuses new calls, waits for running ones. */
  close(): Promise<void>;
}

function entryUrl(): { url: string; execArgv: readonly string[] } {
  // Running from TypeScript sources (tests, tsx): the workers need tsx too.
  const typescript = import.meta.url.endsWith('.ts');
  return {
    url: new URL(typescript ? './worker-entry.ts' : './worker-entry.js', import.meta.url).href,
    execArgv: typescript ? ['--import', 'tsx'] : [],
  };
}

/**
 * Starts a pool of worker threads (Piscina) that runs the handlers of tools declared with
 * `executor: { kind: 'worker', module, export }`. Queued calls travel to a worker several per
 * message, which keeps small CPU tools cheap. A call that times out or is cancelled while it runs
 * is really stopped: its worker is terminated and replaced. A crashed worker fails only the call it
 * was running (`executor_error` with the exit code); calls that had not started are sent again.
 *
 * @example
 * const pool = createWorkerPool({ maxThreads: 4 });
 * const dispatcher = createDispatcher({ registry, executors: [pool.executor] });
 * // … later
 * await pool.close();
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const count = (option: string, value: unknown) =>
    checkPositive('createWorkerPool', option, value, { integer: true });
  const maxThreads = count('maxThreads', options.maxThreads ?? availableParallelism());
  const maxBatch = count('maxBatch', options.maxBatch ?? 128);
  const crashLimit = count('crashLimit', options.crashLimit ?? 5);
  const entry = entryUrl();
  const piscina = new Piscina({
    filename: entry.url,
    minThreads: Math.min(options.minThreads ?? 1, maxThreads),
    maxThreads,
    idleTimeout: options.idleTimeoutMs ?? 30_000,
    execArgv: [...(options.execArgv ?? entry.execArgv)],
    // Piscina's run and wait time histograms cost ~1.5 µs per task (clock reads and two records)
    // and nothing reads them: results carry their own execution time.
    recordTiming: false,
    ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
  });

  /** Calls not sent yet, oldest first. */
  const queue = new FifoQueue<PendingCall>();
  /** Sent calls not settled, by ticket (for progress and results posted by workers). */
  const sent = new Map<number, PendingCall>();
  let batchesInFlight = 0;
  let nextTicket = 0;
  let closed = false;
  let unhealthy: string | null = null;
  /** Crashes since a call last completed. */
  let crashStreak = 0;
  const stats = { calls: 0, batches: 0, crashes: 0, terminations: 0 };

  // Progress events and result notices, each worker's on its own port (Piscina's `message`).
  piscina.on('message', (message: unknown) => {
    // A tool module may post on parentPort for reasons of its own: only our messages count.
    if (!isChannelMessage(message)) return;
    const pending = sent.get(message.ticket);
    if (pending === undefined) return;
    if (message.type !== 'progress') {
      settleWith(pending, message.outcome);
      return;
    }
    pending.progressSeen += 1;
    pending.request.emit(message.progress);
    const held = pending.heldOutcome;
    if (held !== undefined && pending.progressSeen >= held.progress)
      settleWith(pending, held.outcome);
  });

  function settle(pending: PendingCall, outcome: ExecutionOutcome): void {
    if (pending.settled) return;
    pending.settled = true;
    sent.delete(pending.call.ticket);
    pending.resolve(outcome);
  }

  function settleWith(pending: PendingCall, outcome: WorkerOutcome): void {
    if ('skipped' in outcome) return;
    if (pending.progressSeen < outcome.progress) {
      pending.heldOutcome = { outcome, progress: outcome.progress };
      return;
    }
    crashStreak = 0;
    settle(
      pending,
      outcome.ok
        ? { ok: true, value: outcome.value }
        : { ok: false, error: fromErrorData(outcome.error) },
    );
  }

  function pump(): void {
    while (batchesInFlight < maxThreads && queue.size > 0) {
      // Guided self-scheduling: take a fair share of the backlog, not all of it, so the other
      // threads get work too (one huge batch would serialize a CPU-bound turn on one thread).
      const share = Math.min(maxBatch, Math.ceil(queue.size / maxThreads));
      const members: PendingCall[] = [];
      while (members.length < share && queue.size > 0) {
        const pending = queue.shift()!;
        if (!pending.settled) members.push(pending);
      }
      if (members.length > 0) send(members);
    }
  }

  function send(members: PendingCall[]): void {
    batchesInFlight += 1;
    stats.batches += 1;
    const batch = packBatch(members);
    for (const pending of members) {
      pending.batch = batch;
      sent.set(pending.call.ticket, pending);
    }
    const { controller } = batch;
    piscina
      .run(batch.message, controller === undefined ? undefined : { signal: controller.signal })
      .then(
        (result: unknown) => {
          for (let slot = 0; slot < members.length; slot += 1) {
            const outcome = readOutcome(result, slot);
            if (outcome !== undefined) settleWith(members[slot]!, outcome);
          }
          finishBatch();
        },
        (error: unknown) => {
          batchFailed(batch, error);
          finishBatch();
        },
      );
  }

  function finishBatch(): void {
    batchesInFlight -= 1;
    pump();
  }

  /** The worker died or was terminated: fail the call it ran, send the unstarted ones again. */
  function batchFailed(batch: SentBatch, error: unknown): void {
    const aborted = batch.controller?.signal.aborted === true;
    const exitCode = exitCodeOf(error);
    if (!aborted) {
      stats.crashes += 1;
      crashStreak += 1;
      if (crashStreak >= crashLimit) {
        unhealthy = `workers keep dying (${crashStreak} crashes in a row; last: ${describeFailure(error)})`;
      }
    }
    batch.members.forEach((pending, index) => {
      if (pending.settled) return;
      const state = batch.slots === undefined ? undefined : Atomics.load(batch.slots, index);
      if (state === SLOT_QUEUED || state === SLOT_SKIPPED) {
        sent.delete(pending.call.ticket);
        pending.batch = undefined;
        if (unhealthy === null && !closed) queue.push(pending);
        else settle(pending, executorFailure(unhealthy ?? 'the worker pool is closed'));
        return;
      }
      const lost = state === SLOT_DONE ? ' (its result was lost with the worker)' : '';
      settle(
        pending,
        executorFailure(
          aborted
            ? `the worker was stopped to cancel another call of its batch${lost}`
            : `the worker running tool "${pending.call.toolName}" crashed: ${describeFailure(error)}${lost}`,
          exitCode,
        ),
      );
    });
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
    execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
      if (closed)
        return Promise.resolve(
          executorFailure('the worker pool is closed and takes no more calls'),
        );
      if (unhealthy !== null)
        return Promise.resolve(executorFailure(`the worker pool is unhealthy: ${unhealthy}`));
      const tool = request.tool;
      const target = workerTarget(tool);
      if (target === undefined) {
        return Promise.resolve(
          executorFailure(`tool "${tool.name}" is not declared with a worker executor`),
        );
      }
      stats.calls += 1;
      const ticket = nextTicket++;
      return new Promise<ExecutionOutcome>((resolve) => {
        const pending = pendingCall(request, target, ticket, resolve);
        if (request.abortable) {
          if (request.signal.aborted) {
            resolve({ ok: false, error: request.signal.reason });
            return;
          }
          request.whenAborted().catch(() => abortCall(pending));
        }
        // An idle pool posts a lone call at once; calls that find the threads busy wait and
        // leave together, several per message, when a batch comes back.
        if (queue.size === 0 && batchesInFlight < maxThreads) send([pending]);
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
      return unhealthy === null;
    },
    stats,
    async close() {
      closed = true;
      for (let pending = queue.shift(); pending !== undefined; pending = queue.shift()) {
        settle(pending, executorFailure('the worker pool closed before the call started'));
      }
      await piscina.close();
    },
  };
}
