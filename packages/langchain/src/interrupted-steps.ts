import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ToolCallResult } from 'switchyard';

/**
 * What the calls of interrupted tool node runs returned, kept in this process until each run is
 * resumed. When a call pauses the graph, LangGraph drops the node's writes and runs the node again
 * on resume; the calls of that run that had completed are answered from here instead of running
 * twice. A run is known by its thread and its task's checkpoint namespace, which LangGraph keeps
 * across the interrupt (interrupt ids are derived from it).
 */
export class InterruptedSteps {
  /** Completed results by call id, per interrupted run. */
  readonly #steps = new Map<string, ReadonlyMap<string, ToolCallResult>>();

  /** The key of the run `config` belongs to; undefined without a thread (nothing can resume it). */
  keyOf(config: LangGraphRunnableConfig): string | undefined {
    const threadId = config.configurable?.thread_id;
    if (threadId === undefined || threadId === null) return undefined;
    return JSON.stringify([String(threadId), String(config.configurable?.checkpoint_ns ?? '')]);
  }

  /** Removes and returns what the interrupted run `key` completed (empty when there is none). */
  take(key: string | undefined): ReadonlyMap<string, ToolCallResult> {
    if (key === undefined) return EMPTY;
    const completed = this.#steps.get(key);
    this.#steps.delete(key);
    return completed ?? EMPTY;
  }

  /** Keeps the results of the run `key` whose calls completed (not cancelled) for its resume. */
  keep(key: string | undefined, results: readonly ToolCallResult[]): void {
    if (key === undefined) return;
    const completed = new Map<string, ToolCallResult>();
    for (const result of results) {
      if (result.status !== 'cancelled') completed.set(result.toolCallId, result);
    }
    if (completed.size > 0) this.#steps.set(key, completed);
  }

  /** How many interrupted runs are held. */
  get size(): number {
    return this.#steps.size;
  }
}

const EMPTY: ReadonlyMap<string, ToolCallResult> = new Map();
