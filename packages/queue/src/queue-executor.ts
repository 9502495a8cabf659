import { randomBytes } from 'node:crypto';
import type { ExecutionOutcome, ExecutionRequest, Executor } from 'switchyard/executors';
import { errorMessage } from 'switchyard/extension';
import { type JobLane, openJobLane } from './job-lane.js';
import { closedUnder, outcomeOfFailure, outcomeOfResult, queueFailure } from './job-outcome.js';
import { createJobTracker } from './job-tracker.js';
import { createRedisClient } from './load-bullmq.js';
import { type PendingJob, type QueueExecutorStats, toProgress } from './pending-job.js';
import { type QueueExecutorOptions, queueExecutorSettings } from './queue-executor-options.js';
import {
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
  const tracker = createJobTracker({ control, prefix, maxQueueWaitMs, checkIntervalMs, stats });
  const { pending, background, markStarted, settle, settleDone, inBackground } = tracker;
  const { removeUnstarted, abortJob, queueWaitExpired, checkStale } = tracker;

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
      if (job !== undefined) tracker.settleLost(job);
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
