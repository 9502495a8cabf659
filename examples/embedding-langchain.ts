// Switchyard behind LangGraph: the graph drives the model, Switchyard runs every call of an AI
// message as one turn, and a LangChain tool that asks a human pauses the graph until it resumes.
// Run: npm run build && npx tsx examples/embedding-langchain.ts
// With a real model: `new ChatOpenAI({ model: 'gpt-5-mini' }).bindTools(tools.tools)` in `agent`,
// and a durable checkpointer (`SqliteSaver.fromConnString('checkpoints.db')`) in `compile`.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  Command,
  END,
  INTERRUPT,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import {
  fromLangChainTools,
  markIncompleteToolCalls,
  switchyardToolNode,
} from '@switchyard/langchain';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  withAuditLog,
} from 'switchyard';
import { z } from 'zod';

const getWeather = defineTool<{ city: string }, { city: string; temperature: number }>({
  name: 'get_weather',
  description: 'Current temperature in a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 } },
    required: ['city'],
    additionalProperties: false,
  },
  safety: { readOnly: true },
  handler: async ({ city }) => ({ city, temperature: 21 }),
});

// A LangChain tool as it is, with LangGraph's interrupt(): the booking waits for a human.
const bookTable = tool(
  async ({ city }) => {
    const answer = interrupt({ question: `Book a table in ${city}?` }) as string;
    return answer === 'yes' ? `Booked a table in ${city}.` : 'Not booked.';
  },
  {
    name: 'book_table',
    description: 'Books a table for tonight.',
    schema: z.object({ city: z.string() }),
  },
);

const receipts: string[] = [];
const dispatcher = createDispatcher({
  registry: createToolRegistry([getWeather, ...fromLangChainTools([bookTable])]),
  caller: composeToolCallers([
    withAuditLog(
      async (receipt) => void receipts.push(`${receipt.tool_call_id} ${receipt.status}`),
    ),
  ]),
});
const tools = switchyardToolNode({ dispatcher, maxConcurrentTools: 8 });

// A scripted agent: a good call, a misspelt argument and a booking; then an answer.
function agent(state: { messages: BaseMessage[] }) {
  if (state.messages.at(-1) instanceof ToolMessage) {
    return { messages: [new AIMessage('Oslo is at 21 °C and your table is booked.')] };
  }
  const message = new AIMessage({
    content: '',
    tool_calls: [
      { id: 'c1', name: 'get_weather', args: { city: 'Oslo' } },
      { id: 'c2', name: 'get_weather', args: { town: 'Rome' } },
      { id: 'c3', name: 'book_table', args: { city: 'Oslo' } },
    ],
  });
  // A streamed message whose arguments were cut short keeps its text through the state.
  return { messages: [markIncompleteToolCalls(message)] };
}

const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', agent)
  .addNode('tools', tools)
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile({ checkpointer: new MemorySaver() });

const thread = { configurable: { thread_id: 'example' } };
const paused = await graph.invoke(
  { messages: [new HumanMessage('Weather in Oslo and Rome, and a table in Oslo?')] },
  thread,
);
console.log('paused on:', JSON.stringify((paused as Record<string, unknown>)[INTERRUPT]));

// The human says yes: the booking runs again and gets the answer; the weather calls, which had
// completed, are not run again.
const final = await graph.invoke(new Command({ resume: 'yes' }), thread);
for (const message of final.messages) {
  if (message instanceof ToolMessage)
    console.log(message.tool_call_id, message.status, message.content);
}
console.log(final.messages.at(-1)?.content);
for (const receipt of receipts) console.log(receipt);
