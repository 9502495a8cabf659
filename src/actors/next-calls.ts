import type { FifoQueue } from './fifo-queue.js';
import {
  type PendingCall,
  type SentBatch,
  stealFromAny,
  stealFromStalled,
} from './worker-batch.js';

/** What the pool's scheduler reads to choose a free thread's next calls. */
export interface PoolBacklog {
  /** Calls not sent yet, oldest first. */
  readonly queue: FifoQueue<PendingCall>;
  /** Batches sent and not come back. */
  readonly inFlight: ReadonlySet<SentBatch>;
  readonly maxBatch: number;
  readonly maxThreads: number;
  /** The pool is closing: batches run out as they are, and nothing is taken from them. */
  readonly closing: boolean;
  /** Batches that came back so far: the clock `stealFromStalled` tells progress by. */
  readonly batchesBack: number;
}

/**
 * What a free thread runs next: the unstarted calls of a stalled batch (they are older than
 * anything queued), else a share of the queue, else, with the queue empty, unstarted calls of
 * any batch; so a slow or hung call holds up only itself. Null when there is nothing to run.
 * Calls taken from the queue that settled meanwhile are dropped (the share may come back empty).
 */
export function nextCalls(backlog: PoolBacklog): PendingCall[] | null {
  const { queue, inFlight, closing } = backlog;
  // Closing, stolen calls would find no pool to run them.
  if (!closing) {
    const stalled = stealFromStalled(inFlight, backlog.batchesBack);
    if (stalled.length > 0) return stalled;
  }
  if (queue.size > 0) return queuedShare(backlog);
  if (closing) return null;
  const stolen = stealFromAny(inFlight);
  return stolen.length > 0 ? stolen : null;
}

/**
 * Guided self-scheduling: a fair share of the backlog, not all of it, so the other threads get
 * work too (one huge batch would serialize a CPU-bound turn on one thread).
 */
function queuedShare({ queue, maxBatch, maxThreads }: PoolBacklog): PendingCall[] {
  const share = Math.min(maxBatch, Math.ceil(queue.size / maxThreads));
  const members: PendingCall[] = [];
  while (members.length < share && queue.size > 0) {
    const pending = queue.shift()!;
    if (!pending.settled) members.push(pending);
  }
  return members;
}
