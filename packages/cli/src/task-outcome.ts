import type { AgentRun } from 'switchyard';
import { errorMessage } from 'switchyard/extension';
import type { BatchTask } from './batch-tasks.js';

/** One task's result line in a batch's output. */
export interface TaskOutcome {
  readonly id: string;
  /** The agent run's status: `completed`, `done`, `max_iterations`, `failed` (or `cancelled`, never written). */
  readonly status: AgentRun['status'];
  /** The model's final text. */
  readonly text: string;
  /** Model turns that ran to the end. */
  readonly turns: number;
  readonly toolCalls: number;
  readonly failedToolCalls: number;
  readonly usage: AgentRun['usage'];
  /** Wall time of the run, ms (this process's share when the task resumed). */
  readonly latencyMs: number;
  readonly error: string | null;
  /** Model turns and tool calls taken from the journal of an earlier, interrupted run. */
  readonly resumed: { readonly modelTurns: number; readonly toolCalls: number } | null;
  readonly metadata?: unknown;
}

/** Whether the task counts as succeeded (the agent answered, or said it was done). */
export function succeeded(outcome: Pick<TaskOutcome, 'status'>): boolean {
  return outcome.status === 'completed' || outcome.status === 'done';
}

/** The result line of a finished agent run. */
export function taskOutcome(
  task: BatchTask,
  run: AgentRun,
  latencyMs: number,
  resumed: TaskOutcome['resumed'],
): TaskOutcome {
  return {
    id: task.id,
    status: run.status,
    text: run.text,
    turns: run.iterations,
    toolCalls: run.results.length,
    failedToolCalls: run.results.filter((result) => !result.ok).length,
    usage: run.usage,
    latencyMs,
    error:
      run.error !== undefined
        ? errorMessage(run.error)
        : run.status === 'max_iterations'
          ? 'the model still called tools after --max-iterations turns'
          : null,
    resumed,
    ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
  };
}

/** The result line of a task whose run could not start (a model module that threw, …). */
export function failedOutcome(task: BatchTask, error: unknown, latencyMs: number): TaskOutcome {
  return {
    id: task.id,
    status: 'failed',
    text: '',
    turns: 0,
    toolCalls: 0,
    failedToolCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    latencyMs,
    error: errorMessage(error),
    resumed: null,
    ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
  };
}
