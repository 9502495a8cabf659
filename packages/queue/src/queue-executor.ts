import { randomBytes } from 'node:crypto';
import type { ExecutionOutcome, ExecutionRequest, Executor } from 'switchyard/executors';
import { errorMessage } from 'switchyard/extension';
import { type JobLane, openJobLane } from './job-lane.js';
import {
  closedUnder,
  isOwnTimeout,
  lostJob,
  outcomeOfFailure,
  outcomeOfInspection,
  outcomeOfResult,
  queueFailure,
} from './job-outcome.js';
import { createRedisClient } from './load-bullmq.js';
import { type PendingJob, type QueueExecutorStats, toProgress } from './pending-job.js';
import { type QueueExecutorOptions, queueExecutorSettings } from './queue-executor-options.js';
import {
  cancelChannelOf,
  jobDataOf,
  jobIdFor,
  type QueueJobData,
  queueNameFor,
  safetyClassOf,
} from './queue-job.js';

export type { QueueExecutorOptions, QueueExecutorStats };

/** The queue executor and what it holds open. */
export interface QueueExecutor {
  readonly executor: Executor;
  /** Counters since creation (calls sent, re-queued after a dead worker, lost, …). */
  readonly stats: QueueExecutorStats;
  /**
   * Settles every pending call (`executor_error` for a job removed before it started, `in_doubt`
   * for one that ran), removes jobs that had not started, disconnects.
   */
  close(): Promise<void>;
}

/**
 * The `queue` executor: runs each call of a tool declared with `executor: { kind: 'queue' }` as a
 * BullMQ job that a `switchyard worker` process (`startQueueWorker`) picks up, on this machine or
 * another. One result per call, whatever happens: the worker's result comes back through the
 * queue's completion event, which BullMQ writes only under the job's lock, so a dead worker's late
 * result is refused; a timeout or cancellation removes a job that has not started and asks the
 * workers to abort one that has; a call whose worker dies re-runs on another worker only when the
 * tool is read-only or idempotent, and yields `in_doubt` otherwise (as a run journal calls it). A periodic check of calls
 * that have not been heard from settles those whose events were missed or whose jobs vanished
 * (a Redis restart without persistence).
 *
 * @example
 * const queue = createQueueExecutor({ connection: 'redis://127.0.0.1:6379' });
 * const dispatcher = createDispatcher({ registry, executors: [queue.executor] });
 * // … later
 * await queue.close();
 */
export function createQueueExecutor(options: QueueExecutorOptions): QueueExecutor {
  const settings = queueExecutorSettings(options);
  const { connection, prefix, maxQueueWaitMs, checkIntervalMs } = settings;
  const control = createRedisClient(connection.url);
  control.on('error', ignore);
  const lanes = new Map<string, JobLane>();
  const pending = new Map<string, PendingJob>();
  /** Removals and cancel messages still on their way, awaited by `close`. */
  const background = new Set<Promise<unknown>>();
  const instance = randomBytes(4).toString('hex');
  let sequence = 0;
  let closed = false;
  const stats: QueueExecutorStats = {
    calls: 0,
    queued: 0,
    requeued: 0,
    cancelled: 0,
    checked: 0,
    lost: 0,
  };

  const listener = {
    active(jobId: string) {
      const job = pending.get(jobId);
      if (job !== undefined) markStarted(job);
    },
    progress(jobId: string, data: unknown) {
      const job = pending.get(jobId);
      if (job === undefined || job.settled) return;
      job.heardAt = Date.now();
      job.request.emit(toProgress(data));
    },
    completed(jobId: string, returnvalue: unknown) {
      const job = pending.get(jobId);
      // Settled already (by a check of its stored state): its cost was counted then.
      if (job !== undefined && !job.settled)
        settleDone(job, outcomeOfResult(job.request, returnvalue));
    },
    failed(jobId: string, failedReason: string) {
      const job = pending.get(jobId);
      if (job !== undefined) settle(job, outcomeOfFailure(job.request.tool.name, failedReason));
    },
    removed(jobId: string) {
      const job = pending.get(jobId);
      if (job === undefined || job.settled || job.removing) return;
      stats.lost += 1;
      settle(job, lostJob(job.request.tool.name));
    },
    stalled(jobId: string) {
      if (pending.has(jobId)) stats.requeued += 1;
    },
  };

  function laneFor(name: string): JobLane {
    let lane = lanes.get(name);
    if (lane === undefined) {
      lane = openJobLane({ name, connection, prefix, control, listener });
      lanes.set(name, lane);
    }
    return lane;
  }

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

  let checking = false;
  const checkTimer = setInterval(() => {
    if (checking || pending.size === 0) return;
    checking = true;
    checkStale().finally(() => {
      checking = false;
    });
  }, checkIntervalMs);
  checkTimer.unref();

  async function enqueue(job: PendingJob, data: QueueJobData): Promise<boolean> {
    try {
      await job.lane.ready;
      await job.lane.queue.add(data.tool, data, { jobId: job.jobId });
      stats.queued += 1;
      return true;
    } catch (error) {
      settle(
        job,
        queueFailure(
          `could not add the job of tool "${data.tool}" to the queue: ${errorMessage(error)}`,
        ),
      );
      return false;
    }
  }

  const executor: Executor = {
    name: 'queue',
    timesExecution: true,
    execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
      const { tool } = request;
      if (closed) return Promise.resolve(queueFailure('the queue executor is closed'));
      if (tool.executor.kind !== 'queue') {
        return Promise.resolve(
          queueFailure(`tool "${tool.name}" is not declared to run on a queue`),
        );
      }
      stats.calls += 1;
      const lane = laneFor(
        queueNameFor(tool.executor.queue ?? settings.queue, safetyClassOf(tool)),
      );
      const jobId = jobIdFor(request.callId, `${instance}-${(sequence++).toString(36)}`);
      return new Promise<ExecutionOutcome>((resolve) => {
        const job: PendingJob = {
          jobId,
          request,
          lane,
          resolve,
          added: Promise.resolve(false),
          settled: false,
          started: false,
          finished: false,
          removing: false,
          heardAt: Date.now(),
          queueTimer: undefined,
        };
        if (request.signal.aborted) {
          settle(job, { ok: false, error: request.signal.reason });
          return;
        }
        // Registered before the add: the job's events may arrive before the add's reply.
        pending.set(jobId, job);
        job.added = enqueue(job, jobDataOf(request));
        if (request.abortable) request.whenAborted().catch(() => abortJob(job));
        if (maxQueueWaitMs !== undefined) {
          job.queueTimer = setTimeout(() => inBackground(queueWaitExpired(job)), maxQueueWaitMs);
        }
      });
    },
  };

  return {
    executor,
    stats,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(checkTimer);
      await Promise.all(
        [...pending.values()].map(async (job) => {
          const removed = await removeUnstarted(job).catch(() => false);
          settle(job, closedUnder(job.request.tool.name, removed));
        }),
      );
      await Promise.allSettled([...background]);
      await Promise.allSettled([...lanes.values()].map((lane) => lane.close()));
      control.disconnect();
    },
  };
}

function ignore(): void {}
