import type { AgentRun } from 'switchyard';
import { errorMessage } from 'switchyard/extension';
import type { InDoubtCall, PendingApproval } from 'switchyard/journal';
import type { BatchTask } from './batch-tasks.js';
import type { Prices } from './price-table.js';
import { priceToolUsage, type ToolCostTotal, totalToolCost } from './tool-cost-table.js';
import { type ToolUsageTable, toolUsageOf } from './tool-usage-table.js';

/** One task's result line in a batch's output. */
export interface TaskOutcome {
  readonly id: string;
  /**
   * The agent run's status: `completed`, `done`, `max_iterations`, `failed`, `interrupted` (calls
   * wait for approval), `in_doubt` (a call may or may not have taken effect); `cancelled` is never
   * written. The last two are not final: the next run of the batch goes on with the task.
   */
  readonly status: AgentRun['status'];
  /** The model's final text. */
  readonly text: string;
  /** Model turns that ran to the end. */
  readonly turns: number;
  readonly toolCalls: number;
  readonly failedToolCalls: number;
  readonly usage: AgentRun['usage'];
  /**
   * Per tool: calls, dollars the tool reported, model tokens; priced (`PricedToolRow`) on the
   * lines `batch` writes (absent on lines of older runs).
   */
  readonly toolUsage?: ToolUsageTable;
  /** What the task's tools cost in all: calls, tool, model and total USD (with `toolUsage`). */
  readonly toolCost?: ToolCostTotal;
  /** Wall time of the run, ms (this process's share when the task resumed). */
  readonly latencyMs: number;
  readonly error: string | null;
  /** Model turns and tool calls taken from the journal of an earlier, interrupted run. */
  readonly resumed: { readonly modelTurns: number; readonly toolCalls: number } | null;
  /** Calls waiting for a decision (`switchyard approvals`); only when there are some. */
  readonly pendingApprovals?: readonly PendingApproval[];
  /** Calls that may or may not have taken effect (`switchyard in-doubt`); only when there are some. */
  readonly inDoubt?: readonly InDoubtCall[];
  readonly metadata?: unknown;
}

/** Whether the task counts as succeeded (the agent answered, or said it was done). */
export function succeeded(outcome: Pick<TaskOutcome, 'status'>): boolean {
  return outcome.status === 'completed' || outcome.status === 'done';
}

/** Whether the task waits for someone (decisions, or an operator) and goes on when run again. */
export function waitsForOperator(outcome: Pick<TaskOutcome, 'status'>): boolean {
  return outcome.status === 'interrupted' || outcome.status === 'in_doubt';
}

/** The result line of a finished agent run (`resumed`: an earlier run left a journal). */
export function taskOutcome(
  task: BatchTask,
  run: AgentRun,
  latencyMs: number,
  resumed: boolean,
): TaskOutcome {
  return {
    id: task.id,
    status: run.status,
    text: run.text,
    turns: run.iterations,
    toolCalls: run.results.length,
    failedToolCalls: run.results.filter((result) => !result.ok).length,
    usage: run.usage,
    toolUsage: toolUsageOf(run.results),
    latencyMs,
    error: errorOf(run),
    resumed: resumed ? run.replayed : null,
    ...(run.pendingApprovals.length === 0 ? {} : { pendingApprovals: run.pendingApprovals }),
    ...(run.inDoubt.length === 0 ? {} : { inDoubt: run.inDoubt }),
    ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
  };
}

function errorOf(run: AgentRun): string | null {
  if (run.error !== undefined) return errorMessage(run.error);
  switch (run.status) {
    case 'max_iterations':
      return 'the model still called tools after --max-iterations turns';
    case 'interrupted':
      return `${run.pendingApprovals.length} call(s) wait for approval: see switchyard approvals`;
    case 'in_doubt':
      return `${run.inDoubt.length} call(s) may or may not have taken effect: see switchyard in-doubt`;
    case 'halted':
      return `a guardrail halted the run: ${run.results.find((result) => result.status === 'guardrail_halted')?.error ?? ''}`;
    default:
      return null;
  }
}

/** The outcome with its tools' dollars: the table priced, and their total as `toolCost`. */
export function pricedOutcome(outcome: TaskOutcome, prices: Prices): TaskOutcome {
  if (outcome.toolUsage === undefined) return outcome;
  const toolUsage = priceToolUsage(outcome.toolUsage, prices);
  return { ...outcome, toolUsage, toolCost: totalToolCost(toolUsage) };
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
