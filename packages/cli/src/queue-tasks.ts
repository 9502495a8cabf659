import { once } from 'node:events';
import { createTaskQueue, startTaskWorker } from '@switchyard/queue';
import { CancelledError } from 'switchyard';
import type { BatchTask } from './batch-tasks.js';
import type { CommandIo } from './command-io.js';
import { redisReporter } from './redis-reporter.js';
import { type RunTasksOptions, runTasks } from './run-tasks.js';
import { failedOutcome, type TaskOutcome } from './task-outcome.js';

/**
 * `switchyard batch --queue`: the tasks go to `batch --worker` processes as jobs named
 * `<batch>.<task id>` (`batch` names this batch, e.g. a hash of its output file), and each
 * result comes back to `onOutcome`. Submitting a task again after a crash finds the job of the
 * earlier run (BullMQ adds an id once), so a resumed batch never runs a task twice. A task whose
 * earlier results say it waited (approvals, a call in doubt) `rounds` times gets a job of round
 * `.r<n>`: its journal goes on with it. Resolves to the ids of the tasks left waiting when the
 * signal aborted (their jobs go on; run again to collect). While Redis cannot be reached, each
 * connection error is written to `err` as it changes.
 */
export async function runTasksOnQueue(
  connection: string,
  batch: string,
  options: Pick<RunTasksOptions, 'tasks' | 'onOutcome'> & {
    readonly signal: AbortSignal;
    readonly rounds: ReadonlyMap<string, number>;
    /** Where a connection that cannot be made is reported. */
    readonly err: NodeJS.WritableStream;
  },
): Promise<string[]> {
  const redisStatus = redisReporter(options.err, { who: 'switchyard batch', url: connection });
  const queue = createTaskQueue({ connection, onError: redisStatus.onError });
  const cancelled: string[] = [];
  const stopped = once(options.signal, 'abort').then(() => 'stopped' as const);
  try {
    await Promise.all(
      options.tasks.map(async (task) => {
        const round = options.rounds.get(task.id) ?? 0;
        const job = `${batch}.${task.id}${round === 0 ? '' : `.r${round}`}`;
        const result = await Promise.race([queue.submit(job, task), stopped]);
        if (result === 'stopped') cancelled.push(task.id);
        else if (result.ok) options.onOutcome(result.value as TaskOutcome);
        else options.onOutcome(failedOutcome(task, new Error(result.error), 0));
      }),
    );
  } finally {
    await queue.close();
  }
  return cancelled;
}

/**
 * `switchyard batch --worker --queue`: runs the tasks of `batch --queue` producers, `sessions` at
 * once, with this process's model, tools and middleware, journaling each under `journalDirectory`
 * (share it between workers: a task whose worker died is run again from its journal). Runs until
 * SIGINT or SIGTERM, which stops it at once while Redis has never answered (the connection errors
 * are written to stderr meanwhile).
 */
export async function runTaskWorker(
  connection: string,
  options: Omit<RunTasksOptions, 'tasks' | 'onOutcome' | 'signal' | 'interrupt'>,
  io: CommandIo,
  stop: AbortSignal,
  locks: { readonly lockDurationMs: number; readonly stalledIntervalMs: number },
): Promise<void> {
  const who = `switchyard batch worker ${process.pid}`;
  const redisStatus = redisReporter(io.stderr, { who, url: connection });
  const worker = startTaskWorker({
    connection,
    onError: redisStatus.onError,
    concurrency: options.sessions,
    ...locks,
    run: async (data, signal) => {
      let outcome: TaskOutcome | undefined;
      await runTasks({
        ...options,
        tasks: [data as BatchTask],
        sessions: 1,
        // A job the queue cancels stops at once; a stopping worker lets its tasks finish.
        interrupt: signal,
        signal,
        onOutcome: (finished) => {
          outcome = finished;
        },
      });
      if (outcome === undefined) throw new CancelledError('the task was cancelled');
      io.stderr.write(`switchyard batch worker: ${outcome.id} ${outcome.status}\n`);
      return outcome;
    },
  });
  const stopped = stop.aborted ? Promise.resolve() : once(stop, 'abort');
  const connected = await Promise.race([worker.ready.then(() => true), stopped.then(() => false)]);
  if (connected) {
    redisStatus.connected();
    io.stderr.write(`${who}: taking tasks\n`);
    await stopped;
  } else io.stderr.write(`${who}: stopped before Redis answered\n`);
  await worker.close();
}
