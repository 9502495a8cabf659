import { performance } from 'node:perf_hooks';
import type { ModelClient, ToolCaller, ToolRegistry } from 'switchyard';
import { agentLoop, composeToolCallers } from 'switchyard';
import type { Executor } from 'switchyard/executors';
import { canonicalHash } from 'switchyard/tools';
import type { BatchTask } from './batch-tasks.js';
import { journaledModel } from './journaled-model.js';
import { journalPath, TaskJournal } from './task-journal.js';
import { failedOutcome, type TaskOutcome, taskOutcome } from './task-outcome.js';
import { withResumeJournal } from './with-resume-journal.js';

/** Options of `runTasks`. */
export interface RunTasksOptions {
  readonly tasks: readonly BatchTask[];
  /** Agent runs at once. */
  readonly sessions: number;
  /** The model of a task (before journaling); may be shared by every task. */
  readonly modelFor: (task: BatchTask) => ModelClient | Promise<ModelClient>;
  readonly registry: ToolRegistry;
  readonly executors: readonly Executor[];
  /** Middleware shared by every task, outermost first; the task's journal goes inside it. */
  readonly layers: readonly ToolCaller[];
  /** Where each task's resume journal lives. */
  readonly journalDirectory: string;
  readonly maxIterations: number;
  readonly maxConcurrentTools: number;
  readonly eager: boolean;
  readonly signal: AbortSignal;
  /** Each finished task (never one that was cancelled), as soon as it finishes. */
  readonly onOutcome: (outcome: TaskOutcome) => void;
}

/**
 * Runs an agent per task, `sessions` at a time, and hands each finished task's outcome to
 * `onOutcome`. Each task journals its model turns and tool calls (see `withResumeJournal`), so
 * a task cut off by a crash resumes where it stopped. Resolves, once every task has finished or
 * the signal aborted, to the ids of the tasks that were cancelled.
 */
export async function runTasks(options: RunTasksOptions): Promise<string[]> {
  const cancelled: string[] = [];
  let next = 0;
  async function session(): Promise<void> {
    while (!options.signal.aborted) {
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
  const journal = new TaskJournal(
    journalPath(options.journalDirectory, task.id),
    canonicalHash({ task: task.task, system: task.system ?? null, history: task.history ?? null }),
  );
  let replayedTurns = 0;
  let replayedCalls = 0;
  try {
    const model = journaledModel(await options.modelFor(task), journal, () => {
      replayedTurns += 1;
    });
    const run = await agentLoop({
      task: task.task,
      ...(task.system === undefined ? {} : { system: task.system }),
      ...(task.history === undefined ? {} : { history: task.history }),
      model,
      tools: options.registry,
      toolCaller: composeToolCallers([
        ...options.layers,
        withResumeJournal(journal, () => {
          replayedCalls += 1;
        }),
      ]),
      dispatcher: { executors: options.executors },
      maxIterations: options.maxIterations,
      maxConcurrentTools: options.maxConcurrentTools,
      eager: options.eager,
      signal: options.signal,
      sessionId: task.id,
      runId: `run_${task.id}`,
    });
    if (run.status === 'cancelled') return 'cancelled';
    const resumed = journal.resumed
      ? { modelTurns: replayedTurns, toolCalls: replayedCalls }
      : null;
    return taskOutcome(task, run, performance.now() - started, resumed);
  } catch (error) {
    if (options.signal.aborted) return 'cancelled';
    return failedOutcome(task, error, performance.now() - started);
  } finally {
    journal.close();
  }
}
