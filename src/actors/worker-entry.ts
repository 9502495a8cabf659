// The module each pool worker thread loads. It runs a batch of tool calls one after another.
// Results travel back in the return value; in batches that may be stopped midway each result is
// also posted as soon as it is ready, and shared slots tell the main thread exactly which call runs.
import { postToPool, runCall } from './run-call.js';
import {
  batchOf,
  batchResult,
  CALL_FIELDS,
  countOutcomes,
  markPosted,
  pushOutcome,
  readCall,
  readOutcome,
  SLOT_DONE,
  SLOT_QUEUED,
  SLOT_RUNNING,
  type WorkerBatch,
  type WorkerCall,
  type WorkerMessage,
  type WorkerOutcome,
} from './worker-protocol.js';

/**
 * How long a finished call's outcome may wait for the rest of its batch before it is posted on
 * its own: a batch-mate that runs long (or never ends) then holds up only itself.
 */
const POST_HELD_AFTER_MS = 5;

/** A batch in progress: its calls, the shared slots and the outcomes so far (flat). */
interface BatchRun {
  readonly batch: WorkerBatch;
  readonly slots: Int32Array | undefined;
  readonly outcomes: unknown[];
  /** Slots whose outcomes are in `outcomes` and not posted yet (batches without `notify`). */
  held: number[];
  /** When the oldest held outcome was finished. */
  heldSince: number;
  /** Posts the held outcomes while a call waits on a promise, unless it settles first. */
  heldTimer: ReturnType<typeof setTimeout> | undefined;
}

/** Several calls that do not post each result: their outcomes wait in `held`. */
function holdsOutcomes(run: BatchRun): boolean {
  return run.slots !== undefined && run.batch.notify !== true;
}

/**
 * Posts the held outcomes in one message and marks them posted in the batch's own result. An
 * outcome that cannot be cloned stays held: it goes back with the batch, as it always did.
 */
function postHeld(run: BatchRun): void {
  clearTimeout(run.heldTimer);
  run.heldTimer = undefined;
  if (run.held.length === 0 || running !== run) return;
  const tickets: number[] = [];
  const outcomes: unknown[] = [];
  for (const slot of run.held) {
    tickets.push(readCall(run.batch.calls, slot).ticket);
    pushOutcome(outcomes, readOutcome(run.outcomes, slot)!);
  }
  try {
    postToPool({ type: 'results', tickets, outcomes });
  } catch {
    return;
  }
  for (const slot of run.held) markPosted(run.outcomes, slot);
  run.held = [];
}

/**
 * Runs the calls from `first` on; synchronously until a call has to wait on a promise. Resolves to
 * the batch's result (see `batchResult`).
 */
function runFrom(run: BatchRun, first: number): unknown {
  const { batch, slots } = run;
  const count = batch.calls.length / CALL_FIELDS;
  for (let slot = first; slot < count; slot += 1) {
    if (
      slots !== undefined &&
      Atomics.compareExchange(slots, slot, SLOT_QUEUED, SLOT_RUNNING) !== SLOT_QUEUED
    ) {
      pushOutcome(run.outcomes, { ok: false, skipped: true });
      continue;
    }
    // A call that keeps the thread for good must not keep the outcomes before it.
    if (run.held.length > 0 && performance.now() - run.heldSince >= POST_HELD_AFTER_MS) {
      postHeld(run);
    }
    const call = readCall(batch.calls, slot);
    if (batch.notify) postToPool({ type: 'start', ticket: call.ticket });
    const outcome = runCall(call, batch.hidden?.[slot]);
    if (outcome instanceof Promise) {
      if (run.held.length > 0) {
        run.heldTimer ??= setTimeout(postHeld, POST_HELD_AFTER_MS, run);
      }
      return outcome.then((settled) => {
        finishCall(run, slot, call, settled);
        return runFrom(run, slot + 1);
      });
    }
    finishCall(run, slot, call, outcome);
  }
  clearTimeout(run.heldTimer);
  if (running === run) running = undefined;
  return batchResult(run.outcomes);
}

function finishCall(run: BatchRun, slot: number, call: WorkerCall, outcome: WorkerOutcome): void {
  if (run.slots !== undefined) Atomics.store(run.slots, slot, SLOT_DONE);
  if (run.batch.notify) {
    postToPool({ type: 'done', ticket: call.ticket, outcome });
  }
  pushOutcome(run.outcomes, outcome);
  if (holdsOutcomes(run)) {
    if (run.held.length === 0) run.heldSince = performance.now();
    run.held.push(slot);
  }
}

/** The batch this worker runs (one at a time); its finished outcomes are saved if the worker dies. */
let running: BatchRun | undefined;

/**
 * A tool that throws where nothing catches it ends this worker. Say which call did and why, then
 * exit: Node reports an uncaught error to the pool on a channel of its own, which may overtake
 * what the worker posted, but it delivers everything posted before an exit ahead of the exit.
 */
process.on('uncaughtException', (error: unknown) => {
  const run = running;
  const ticket = run === undefined ? undefined : runningTicket(run);
  if (ticket !== undefined) {
    const message = error instanceof Error ? error.message : String(error);
    postToPool({ type: 'crash', ticket, message });
  }
  process.exit(1);
});

/** The ticket of the call a batch is running: the first without an outcome. */
function runningTicket(run: BatchRun): number | undefined {
  const slot = countOutcomes(run.outcomes);
  return slot < run.batch.calls.length / CALL_FIELDS
    ? readCall(run.batch.calls, slot).ticket
    : undefined;
}

/**
 * A tool that calls `process.exit` (or throws where nothing catches it) ends this worker midway
 * through a batch. The outcomes its earlier calls produced would go down with the batch's return
 * value: post them first (Node delivers what a worker posts before its `exit` event).
 */
process.on('exit', () => {
  const run = running;
  if (run === undefined || run.batch.notify) return; // notify batches posted each result already
  for (let slot = 0; ; slot += 1) {
    const outcome = readOutcome(run.outcomes, slot);
    if (outcome === undefined) return;
    if ('skipped' in outcome) continue;
    const ticket = readCall(run.batch.calls, slot).ticket;
    try {
      postToPool({ type: 'done', ticket, outcome });
    } catch {
      // A value that cannot be cloned is lost with the worker, like the rest of its batch.
    }
  }
});

/** Piscina's task function: the batch's result, its outcomes in slot order (see `batchResult`). */
export default function runBatch(message: WorkerMessage): unknown {
  const batch = batchOf(message);
  const slots = batch.slots === undefined ? undefined : new Int32Array(batch.slots);
  const run: BatchRun = {
    batch,
    slots,
    outcomes: [],
    held: [],
    heldSince: 0,
    heldTimer: undefined,
  };
  running = run;
  return runFrom(run, 0);
}
