import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { DispatchTurnOptions, ToolCallResult } from 'switchyard';
import { dispatchTurn, InvalidOptionError } from 'switchyard';
import { proposedCallsFromAIMessage } from './proposed-calls-from-ai-message.js';

/** Options of `switchyardToolNode`: those of a Switchyard turn, less the signal (the graph's). */
export type SwitchyardToolNodeOptions = Omit<DispatchTurnOptions, 'signal'>;

/** The state a tool node reads and writes: LangGraph's `MessagesAnnotation`. */
export interface MessagesState {
  readonly messages: readonly BaseMessage[];
}

/**
 * A LangGraph node that replaces `ToolNode`: it dispatches every call of the last AI message —
 * unknown tools and unparseable or schema-violating arguments included, which `ToolNode` would
 * answer itself — as one Switchyard turn, and returns one `ToolMessage` per call in planner
 * order, carrying Switchyard's observation (`status: 'error'` when the call failed) and the whole
 * `ToolCallResult` as its `artifact`. The graph's abort signal cancels the turn; the thread id
 * becomes the turn's session id unless `turn.sessionId` is set.
 *
 * @example
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode('agent', callModel)
 *   .addNode('tools', switchyardToolNode({ dispatcher, maxConcurrentTools: 8 }))
 *   .addEdge(START, 'agent').addConditionalEdges('agent', toolsCondition).addEdge('tools', 'agent')
 *   .compile();
 * @throws InvalidOptionError when `dispatcher` is missing.
 */
export function switchyardToolNode(options: SwitchyardToolNodeOptions) {
  if (typeof options?.dispatcher?.dispatch !== 'function') {
    throw new InvalidOptionError(
      'dispatcher',
      'switchyardToolNode: dispatcher must be a Switchyard dispatcher',
    );
  }
  let iteration = 0;
  return async function switchyardTools(
    state: MessagesState,
    config?: RunnableConfig,
  ): Promise<{ messages: ToolMessage[] }> {
    const last = state.messages.at(-1);
    if (last === undefined || !AIMessage.isInstance(last)) return { messages: [] };
    const threadId = config?.configurable?.thread_id;
    const results = await dispatchTurn(proposedCallsFromAIMessage(last), {
      ...options,
      signal: config?.signal,
      turn: {
        ...(typeof threadId === 'string' ? { sessionId: threadId } : {}),
        ...options.turn,
        iteration: iteration++,
      },
    });
    return { messages: results.map(toToolMessage) };
  };
}

/** One result as the message LangChain sends back to the model. */
export function toToolMessage(result: ToolCallResult): ToolMessage {
  return new ToolMessage({
    content: result.observation,
    tool_call_id: result.toolCallId,
    name: result.toolName,
    status: result.ok ? 'success' : 'error',
    artifact: result,
  });
}
