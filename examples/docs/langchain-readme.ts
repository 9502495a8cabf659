// packages/langchain/README.md: LangChain tools run by Switchyard inside a LangGraph graph.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';

declare const model: BaseChatModel & { bindTools: NonNullable<BaseChatModel['bindTools']> };
declare const search: StructuredToolInterface;
declare const bookTable: StructuredToolInterface;

// #region graph
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import {
  fromLangChainTools,
  markIncompleteToolCalls,
  switchyardToolNode,
} from '@switchyard/langchain';
import { createDispatcher, createToolRegistry } from 'switchyard';

const dispatcher = createDispatcher({
  registry: createToolRegistry(fromLangChainTools([search, bookTable])),
});
const tools = switchyardToolNode({ dispatcher, maxConcurrentTools: 8 });

const graph = new StateGraph(MessagesAnnotation)
  .addNode('model', async (state) => ({
    messages: [markIncompleteToolCalls(await model.bindTools(tools.tools).invoke(state.messages))],
  }))
  .addNode('tools', tools)
  .addEdge(START, 'model');

// or: createReactAgent({ llm: model.pipe(markIncompleteToolCalls), tools, checkpointer })
// #endregion graph

export { graph };
