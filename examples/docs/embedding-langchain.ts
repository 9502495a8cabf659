// docs/embedding.md: switchyardToolNode in a LangGraph graph, and approvals through interrupt().
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver, LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Dispatcher } from 'switchyard';

declare const chatModel: BaseChatModel & { bindTools: NonNullable<BaseChatModel['bindTools']> };
declare const dispatcher: Dispatcher;
declare const checkpointer: BaseCheckpointSaver;
declare const directory: string;
declare const threadId: string;
declare const file: string;
declare const messages: BaseMessage[];
declare const config: LangGraphRunnableConfig;

// #region graph
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent, toolsCondition } from '@langchain/langgraph/prebuilt';
import { markIncompleteToolCalls, switchyardToolNode } from '@switchyard/langchain';

const tools = switchyardToolNode({ dispatcher, maxConcurrentTools: 8 });
const model = chatModel.bindTools(tools.tools);

const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state) => ({
    messages: [markIncompleteToolCalls(await model.invoke(state.messages))],
  }))
  .addNode('tools', tools)
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile({ checkpointer });

// or, where an application builds a ReAct agent:
const agent = createReactAgent({
  llm: chatModel.pipe(markIncompleteToolCalls),
  tools,
  checkpointer,
});

// #endregion graph

// #region approvals
import { Command } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

const journal = await openRunJournal({
  store: createFileJournalStore({ directory }),
  runId: threadId,
  approvals: true,
});
const approving = switchyardToolNode({ dispatcher, journal });
const durable = createReactAgent({
  llm: chatModel,
  tools: approving,
  checkpointer: SqliteSaver.fromConnString(file),
});
const paused = await durable.invoke({ messages }, config); // paused.__interrupt__[0].value.approval
// later, in any process, with the same thread and journal:
await durable.invoke(new Command({ resume: true }), config);

// #endregion approvals

export { agent, graph, paused };
