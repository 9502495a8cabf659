import type { Job, Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from './load-bullmq.js';
import { loadBullMq } from './load-bullmq.js';

/** What a lane reports about the jobs of its queue, by job id (every dispatcher hears every job). */
export interface LaneListener {
  active(jobId: string): void;
  progress(jobId: string, data: unknown): void;
  completed(jobId: string, returnvalue: unknown): void;
  failed(jobId: string, failedReason: string): void;
  removed(jobId: string): void;
  stalled(jobId: string): void;
}

/** One BullMQ queue as the dispatcher uses it: where jobs are added and their events read. */
export interface JobLane {
  readonly name: string;
  readonly queue: Queue;
  /** Resolves once the queue is connected and its events are being read (never, if closed first). */
  readonly ready: Promise<void>;
  /** A job's state and, when it finished, its return value or failure. */
  inspect(jobId: string): Promise<JobInspection>;
  close(): Promise<void>;
}

export type JobInspection =
  | { readonly state: 'completed'; readonly returnvalue: unknown }
  | { readonly state: 'failed'; readonly failedReason: string }
  | { readonly state: 'active' | 'waiting' | 'unknown' };

/** How long completed and failed jobs stay in Redis, so a missed event can still be read. */
const KEEP_SECONDS = 3600;

/**
 * Opens a queue and its event reader. The reader starts from the stream's last entry as it was
 * before any job of ours was added (not BullMQ's default `$`, which drops events written before the
 * first blocking read), and the stream keeps 100 000 events so a busy dispatcher does not lose
 * completions to trimming.
 */
export function openJobLane(options: {
  readonly name: string;
  readonly connection: { readonly url: string; readonly maxRetriesPerRequest: null };
  readonly prefix: string;
  readonly control: RedisClient;
  readonly listener: LaneListener;
  /** Told of every error the queue's connections report while they retry. Default: ignored. */
  readonly onError?: (error: Error) => void;
}): JobLane {
  const { name, connection, prefix, control, listener } = options;
  const onError = options.onError ?? ignore;
  const bullmq = loadBullMq();
  const queue = new bullmq.Queue(name, {
    connection,
    prefix,
    streams: { events: { maxLen: 100_000 } },
    defaultJobOptions: {
      removeOnComplete: { age: KEEP_SECONDS },
      removeOnFail: { age: KEEP_SECONDS },
    },
  });
  // Errors of the connections are retried by ioredis; the listeners keep them from crashing us.
  queue.on('error', onError);
  let events: QueueEvents | undefined;
  /** Set once the queue and its event reader are connected; until then close() waits for nothing. */
  let connected = false;
  let closing = false;
  const ready = (async () => {
    await queue.waitUntilReady();
    if (closing) throw new Error(`queue ${name} was closed before it connected`);
    const last = await control.xrevrange(queue.keys.events ?? '', '+', '-', 'COUNT', 1);
    events = new bullmq.QueueEvents(name, {
      connection,
      prefix,
      lastEventId: last[0]?.[0] ?? '0-0',
    });
    events.on('error', onError);
    events.on('active', ({ jobId }) => listener.active(jobId));
    events.on('progress', ({ jobId, data }) => listener.progress(jobId, data));
    events.on('completed', ({ jobId, returnvalue }) => listener.completed(jobId, returnvalue));
    events.on('failed', ({ jobId, failedReason }) => listener.failed(jobId, failedReason));
    events.on('removed', ({ jobId }) => listener.removed(jobId));
    events.on('stalled', ({ jobId }) => listener.stalled(jobId));
    await events.waitUntilReady();
    connected = true;
  })();
  ready.catch(ignore);

  async function inspect(jobId: string): Promise<JobInspection> {
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job: Job | undefined = await queue.getJob(jobId);
      if (job === undefined) return { state: 'unknown' };
      return state === 'completed'
        ? { state, returnvalue: job.returnvalue }
        : { state, failedReason: job.failedReason };
    }
    if (state === 'active') return { state };
    return { state: state === 'unknown' ? 'unknown' : 'waiting' };
  }

  return {
    name,
    queue,
    ready,
    inspect,
    async close() {
      closing = true;
      // Never connected: nothing was sent, and waiting for `ready` would wait for Redis.
      if (connected) await ready.catch(ignore);
      await Promise.allSettled([events?.close(), queue.close()]);
    },
  };
}

function ignore(): void {}
