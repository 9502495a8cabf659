import type { RunnableConfig } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { ToolRuntime as LangChainToolRuntime } from '@langchain/core/tools';
import { interrupt, isGraphBubbleUp, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { CancelledError } from 'switchyard';

/**
 * What the tools of one `switchyardToolNode` run receive as `runtime.context` (tools that list
 * `context` in `injected`; `fromLangChainTools` tools do): the node's view of the graph step.
 * LangChain tools run under it get what LangGraph's `ToolNode` gives them; a Switchyard tool can
 * read `state` and `config` itself and pause the graph with `interrupt(runtime.callId, value)`.
 */
export class LangGraphToolContext {
  /** The node's input: the graph state (for a `Send`, its payload without `lg_tool_call`). */
  readonly state: unknown;
  /** The node's config: callbacks, `configurable` (thread, checkpoint), store, signal. */
  readonly config: LangGraphRunnableConfig;
  /**
   * What calls raised that the graph must see rather than the model (`interrupt()`, a
   * `Command.PARENT` thrown from a subgraph, a drain), by call id, in the order raised.
   */
  readonly #raised = new Map<string, Error>();

  constructor(state: unknown, config: LangGraphRunnableConfig) {
    this.state = state;
    this.config = config;
  }

  /**
   * LangGraph's `interrupt(value)` for the call `callId` of a Switchyard tool: the resume value
   * when the graph is being resumed; otherwise the graph pauses once the step's other calls have
   * settled, and this call ends `cancelled` (it runs again on resume).
   * @throws CancelledError to end the call when the graph pauses.
   */
  interrupt<Resume = unknown>(callId: string, value: unknown): Resume {
    try {
      return AsyncLocalStorageProviderSingleton.runWithConfig(this.config, () =>
        interrupt<unknown, Resume>(value),
      );
    } catch (error) {
      this.raise(callId, error);
    }
  }

  /**
   * Consumes `count` resume values without a call. LangGraph hands resume values to a task's
   * `interrupt()` calls by their order; calls answered from what an interrupted run kept do not
   * call it again, so the node takes their answers first, before any call runs. That holds the
   * order whenever the kept calls' pauses came before the others' (always when each call pauses
   * at most once).
   */
  skipAnswers(count: number): void {
    if (count === 0) return;
    AsyncLocalStorageProviderSingleton.runWithConfig(this.config, () => {
      for (let answer = 0; answer < count; answer += 1) interrupt(null);
    });
  }

  /**
   * The config a LangChain tool is invoked with for the call `callId`: the node's own (so the
   * tool's run nests under the node's in tracing), the tool call, `signal` (the call's own), and
   * the fields of LangChain's `ToolRuntime` that `ToolNode` sets (`state`, `toolCallId`,
   * `context`, `store`, `writer`).
   */
  toolConfig(callId: string, signal: AbortSignal): RunnableConfig & Partial<LangChainToolRuntime> {
    const config = this.config;
    return {
      ...config,
      signal,
      state: this.state,
      toolCallId: callId,
      config,
      context: config.context,
      store: config.store ?? null,
      writer: config.writer ?? config.configurable?.writer ?? null,
    } as RunnableConfig & Partial<LangChainToolRuntime>;
  }

  /**
   * Ends the call `callId` on what it threw: LangGraph's control flow (`GraphBubbleUp`) is kept
   * for the graph and the call is cancelled; anything else is thrown on as the tool's failure.
   * @throws CancelledError for control flow, `error` itself otherwise.
   */
  raise(callId: string, error: unknown): never {
    if (!isGraphBubbleUp(error)) throw error;
    this.#raised.set(callId, error as Error);
    throw new CancelledError(
      `the graph paused (${(error as Error).name}); the call runs again when the graph resumes`,
      error,
    );
  }

  /** What the step's calls raised for the graph, by call id, in the order raised. */
  get raised(): ReadonlyMap<string, Error> {
    return this.#raised;
  }
}
