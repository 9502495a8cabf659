import type { ExecutionOutcome, ExecutionRequest } from 'switchyard/executors';
import type { ToolProgress } from 'switchyard/tools';
import type { JobLane } from './job-lane.js';

/** Counters of a queue executor since it was created. */
export interface QueueExecutorStats {
  calls: number;
  /** Jobs Redis acknowledged. */
  queued: number;
  /** Jobs BullMQ put back in the wait list after their worker died (re-runnable tools only). */
  requeued: number;
  cancelled: number;
  /** Calls settled by the stale-job check instead of an event (missed events, lost jobs). */
  checked: number;
  lost: number;
}

/** A call whose job is in the queue, as the queue executor tracks it. */
export interface PendingJob {
  readonly jobId: string;
  readonly request: ExecutionRequest;
  readonly lane: JobLane;
  readonly resolve: (outcome: ExecutionOutcome) => void;
  /** Resolves true once the job is in Redis, false when adding it failed. */
  added: Promise<boolean>;
  settled: boolean;
  started: boolean;
  /** Its job ended with the worker's own timeout: the dispatcher's time limit settles the call. */
  finished: boolean;
  /** We are removing the job ourselves: its `removed` event is no loss. */
  removing: boolean;
  /** When an event of this job (or a check) last said it was alive, in ms. */
  heardAt: number;
  queueTimer: ReturnType<typeof setTimeout> | undefined;
}

/** A job's progress data as a progress event: objects as they are, anything else under `data`. */
export function toProgress(data: unknown): ToolProgress {
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as ToolProgress)
    : { data };
}
