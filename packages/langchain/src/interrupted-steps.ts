import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ToolCallResult } from 'switchyard';

/** What an interrupted tool node run left for its resume. */
export interface InterruptedStep {
  /** The results of the calls that completed, by call id. */
  readonly completed: ReadonlyMap<string, ToolCallResult>;
  /** How many times each call paused the graph in this step, by call id. */
  readonly pauses: ReadonlyMap<string, number>;
}

/**
 * What the calls of interrupted tool node runs returned, kept in this process until each run is
 * resumed. When a call pauses the graph (or the graph is aborted), LangGraph drops the node's
 * writes and runs the node again on resume; the calls of that run that had completed are answered
 * from here instead of running twice. A run is known by its thread and its task's checkpoint namespace, which LangGraph keeps
 * across the interrupt (interrupt ids are derived from it).
 */
export class InterruptedSteps {
  readonly #steps = new Map<string, InterruptedStep>();

  /** The key of the run `config` belongs to; undefined without a thread (nothing can resume it). */
  keyOf(config: LangGraphRunnableConfig): string | undefined {
    const threadId = config.configurable?.thread_id;
    if (threadId === undefined || threadId === null) return undefined;
    return JSON.stringify([String(threadId), String(config.configurable?.checkpoint_ns ?? '')]);
  }

  /** Removes and returns what the interrupted run `key` left (nothing when it was not one). */
  take(key: string | undefined): InterruptedStep {
    if (key === undefined) return NOTHING;
    const step = this.#steps.get(key);
    this.#steps.delete(key);
    return step ?? NOTHING;
  }

  /**
   * Keeps, for the resume of the run `key`, the results of its calls that completed (not
   * cancelled) and the pauses of the step so far: `earlier`'s and the interrupt the call `paused`
   * raised, which the resume answers (none when the graph stopped for another reason).
   */
  keep(
    key: string | undefined,
    results: readonly ToolCallResult[],
    earlier: InterruptedStep,
    paused: string | undefined,
  ): void {
    if (key === undefined) return;
    const completed = new Map<string, ToolCallResult>();
    for (const result of results) {
      if (result.status !== 'cancelled') completed.set(result.toolCallId, result);
    }
    const pauses = new Map(earlier.pauses);
    if (paused !== undefined) pauses.set(paused, (pauses.get(paused) ?? 0) + 1);
    this.#steps.set(key, { completed, pauses });
  }
}

/**
 * How many resume values the completed calls of `step` consumed: one per pause each raised. They
 * are answered from what was kept, without calling `interrupt()` again.
 */
export function answersConsumed(step: InterruptedStep): number {
  let consumed = 0;
  for (const [callId, count] of step.pauses) if (step.completed.has(callId)) consumed += count;
  return consumed;
}

const NOTHING: InterruptedStep = { completed: new Map(), pauses: new Map() };
