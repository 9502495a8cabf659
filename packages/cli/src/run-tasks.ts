import { performance } from 'node:perf_hooks';
import type { ModelClient, ToolCaller, ToolRegistry } from 'switchyard';
import { agentLoop, composeToolCallers } from 'switchyard';
import type { Executor } from 'switchyard/executors';
import { type ApprovalOptions, type JournalStore, openRunJournal } from 'switchyard/journal';
import type { BatchTask } from './batch-tasks.js';
import { failedOutcome, type TaskOutcome, taskOutcome } from './task-outcome.js';
import { taskRunId } from './task-run-id.js';

/** Options of `runTasks`. */
export interface RunTasksOptions {
  readonly tasks: readonly BatchTask[];
  /** Agent runs at once. */
  readonly sessions: number;
  /** The model of a task; may be shared by every task. */
  readonly modelFor: (task: BatchTask) => ModelClient | Promise<ModelClient>;
  readonly registry: ToolRegistry;
  readonly executors: readonly Executor[];
  /** Middleware shared by every task, outermost first. */
  readonly layers: readonly ToolCaller[];
  /** Where each task's run journal lives (`taskRunId` names its run). */
  readonly journal: JournalStore;
  /** Durable approvals: which calls wait for a decision (`switchyard approvals`). Default none. */
  readonly approvals?: false | ApprovalOptions;
  readonly maxIterations: number;
  readonly maxConcurrentTools: number;
  readonly eager: boolean;
  /** The first Ctrl-C: no task or call starts; running calls finish within `graceMs`. */
  readonly interrupt: AbortSignal;
  readonly graceMs: number;
  /** The second Ctrl-C: everything stops at once. */
  readonly signal: AbortSignal;
  /** Each finished task (never one that was cancelled), as soon as it finishes. */
  readonly onOutcome: (outcome: TaskOutcome) => void;
}

/**
 * Runs an agent per task, `sessions` at a time, and hands each finished task's outcome to
 * `onOutcome`. Each task runs with its run journal: a task cut off by a crash or a Ctrl-C resumes
 * where it stopped, replaying its model turns and the results of its completed calls, and a task
 * that waits for approvals or for an operator (a call in doubt) ends with that status and goes on
 * when run again. Resolves, once every task has finished or the run was interrupted, to the ids of
 * the tasks that were cancelled.
 */
export async function runTasks(options: RunTasksOptions): Promise<string[]> {
  const cancelled: string[] = [];
  let next = 0;
  const stopped = () => options.signal.aborted || options.interrupt.aborted;
  async function session(): Promise<void> {
    while (!stopped()) {
      const task = options.tasks[next];
      if (task === undefined) return;
      next += 1;
      const outcome = await runTask(options, task);
      if (outcome === 'cancelled') cancelled.push(task.id);
      else options.onOutcome(outcome);
    }
  }
  const count = Math.min(options.sessions, options.tasks.length);
  await Promise.all(Array.from({ length: count }, session));
  for (let index = next; index < options.tasks.length; index += 1) {
    cancelled.push((options.tasks[index] as BatchTask).id);
  }
  return cancelled;
}

async function runTask(
  options: RunTasksOptions,
  task: BatchTask,
): Promise<TaskOutcome | 'cancelled'> {
  const started = performance.now();
  try {
    const journal = await openRunJournal({
      store: options.journal,
      runId: taskRunId(task),
      ...(options.approvals === undefined || options.approvals === false
        ? {}
        : { approvals: options.approvals }),
    });
    try {
      const run = await agentLoop({
        task: task.task,
        ...(task.system === undefined ? {} : { system: task.system }),
        ...(task.history === undefined ? {} : { history: task.history }),
        model: await options.modelFor(task),
        tools: options.registry,
        toolCaller: composeToolCallers([...options.layers]),
        dispatcher: { executors: options.executors },
        maxIterations: options.maxIterations,
        maxConcurrentTools: options.maxConcurrentTools,
        eager: options.eager,
        signal: options.signal,
        interrupt: options.interrupt,
        interruptGraceMs: options.graceMs,
        sessionId: task.id,
        journal,
      });
      if (run.status === 'cancelled') return 'cancelled';
      return taskOutcome(task, run, performance.now() - started, journal.resumed);
    } finally {
      await journal.close();
    }
  } catch (error) {
    if (options.signal.aborted || options.interrupt.aborted) return 'cancelled';
    return failedOutcome(task, error, performance.now() - started);
  }
}
