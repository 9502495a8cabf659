// The queue executor's calls in flight and how each one settles, apart from how jobs are sent.
import type { ExecutionOutcome } from 'switchyard/executors';
import { isOwnTimeout, lostJob, outcomeOfInspection, queueFailure } from './job-outcome.js';
import type { RedisClient } from './load-bullmq.js';
import type { PendingJob, QueueExecutorStats } from './pending-job.js';
import { cancelChannelOf } from './queue-job.js';

export interface JobTrackerOptions {
  readonly control: RedisClient;
  readonly prefix: string;
  readonly maxQueueWaitMs: number | undefined;
  readonly checkIntervalMs: number;
  readonly stats: QueueExecutorStats;
}

/** The pending calls of a queue executor, keyed by job id, and the ways they settle. */
export interface JobTracker {
  readonly pending: Map<string, PendingJob>;
  /** Removals and cancel messages still on their way, awaited by `close`. */
  readonly background: Set<Promise<unknown>>;
  markStarted(job: PendingJob): void;
  settle(job: PendingJob, outcome: ExecutionOutcome): void;
  settleDone(job: PendingJob, outcome: ExecutionOutcome): void;
  settleLost(job: PendingJob): void;
  inBackground(work: Promise<unknown>): void;
  removeUnstarted(job: PendingJob): Promise<boolean>;
  abortJob(job: PendingJob): void;
  queueWaitExpired(job: PendingJob): Promise<void>;
  checkStale(): Promise<void>;
}

export function createJobTracker(options: JobTrackerOptions): JobTracker {
  const { control, prefix, maxQueueWaitMs, checkIntervalMs, stats } = options;
  const pending = new Map<string, PendingJob>();
  const background = new Set<Promise<unknown>>();

  function markStarted(job: PendingJob): void {
    job.heardAt = Date.now();
    if (job.started || job.settled) return;
    job.started = true;
    clearTimeout(job.queueTimer);
    job.request.started?.();
  }

  function settle(job: PendingJob, outcome: ExecutionOutcome): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.queueTimer);
    pending.delete(job.jobId);
    job.resolve(outcome);
  }

  /**
   * Settles a call with its finished job's outcome, except a timeout of the worker's own clock:
   * that clock starts before the dispatcher hears the job started, so the dispatcher's limit (the
   * same `timeoutMs`) is about to pass too; waiting for it ends the call as the timeout it is, as
   * on every other executor, instead of as the tool's error. `markStarted` makes sure it runs.
   */
  function settleDone(job: PendingJob, outcome: ExecutionOutcome): void {
    if (!isOwnTimeout(job.request, outcome)) settle(job, outcome);
    else {
      job.finished = true;
      markStarted(job);
    }
  }

  /** A job removed by someone else before it settled: the call is lost. */
  function settleLost(job: PendingJob): void {
    if (job.settled || job.removing) return;
    stats.lost += 1;
    settle(job, lostJob(job.request.tool.name));
  }

  function inBackground(work: Promise<unknown>): void {
    const tracked = work.catch(ignore).finally(() => background.delete(tracked));
    background.add(tracked);
  }

  /** Removes a job that has not started; true when it is gone (it will never run). */
  async function removeUnstarted(job: PendingJob): Promise<boolean> {
    if (!(await job.added)) return true;
    job.removing = true;
    const removed = (await job.lane.queue.remove(job.jobId)) === 1;
    job.removing = removed;
    return removed;
  }

  /** A timeout or cancellation: settle now, then make sure the job never runs or stops running. */
  function abortJob(job: PendingJob): void {
    if (job.settled) return;
    settle(job, { ok: false, error: job.request.signal.reason });
    if (job.finished) return;
    stats.cancelled += 1;
    inBackground(
      removeUnstarted(job).then(async (removed) => {
        if (!removed) {
          const base = job.lane.name.slice(0, job.lane.name.lastIndexOf('.'));
          await control.publish(cancelChannelOf(prefix, base), job.jobId);
        }
      }),
    );
  }

  async function queueWaitExpired(job: PendingJob): Promise<void> {
    if (job.settled || job.started) return;
    if (!(await removeUnstarted(job).catch(() => false))) return;
    settle(
      job,
      queueFailure(
        `tool "${job.request.tool.name}" waited more than maxQueueWaitMs (${maxQueueWaitMs} ms) for a queue worker and never started`,
      ),
    );
  }

  /** Asks Redis about calls not heard from for a while: missed events, vanished jobs. */
  async function checkStale(): Promise<void> {
    const now = Date.now();
    for (const job of [...pending.values()]) {
      if (job.settled || now - job.heardAt < checkIntervalMs) continue;
      if (!(await job.added)) continue;
      const seen = await job.lane.inspect(job.jobId).catch(() => undefined);
      if (seen === undefined || job.settled) continue;
      job.heardAt = Date.now();
      if (seen.state === 'active') markStarted(job);
      const outcome = outcomeOfInspection(job.request, seen);
      if (outcome !== undefined) {
        stats.checked += 1;
        if (seen.state === 'unknown') stats.lost += 1;
        settleDone(job, outcome);
      }
    }
  }

  return {
    pending,
    background,
    markStarted,
    settle,
    settleDone,
    settleLost,
    inBackground,
    removeUnstarted,
    abortJob,
    queueWaitExpired,
    checkStale,
  };
}

function ignore(): void {}
