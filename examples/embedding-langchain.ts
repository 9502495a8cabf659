// Switchyard behind LangGraph: the graph drives the model, Switchyard runs every call of an AI
// message as one turn. Run: npm run build && npx tsx examples/embedding-langchain.ts
// With a real model, call e.g. `new ChatOpenAI({ model: 'gpt-5-mini' }).bindTools(...)` in `agent`.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { switchyardToolNode } from '@switchyard/langchain';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  withAuditLog,
} from 'switchyard';

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

const receipts: { tool_call_id: string; status: string }[] = [];
const dispatcher = createDispatcher({
  registry: createToolRegistry([getWeather]),
  caller: composeToolCallers([withAuditLog(async (receipt) => void receipts.push(receipt))]),
});

// A scripted agent: first a good call and a call with a misspelt argument, then an answer.
function agent(state: { messages: BaseMessage[] }) {
  if (state.messages.at(-1) instanceof ToolMessage) {
    return { messages: [new AIMessage('Oslo is at 21 °C; I will ask again for Rome.')] };
  }
  return {
    messages: [
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'c1', name: 'get_weather', args: { city: 'Oslo' } },
          { id: 'c2', name: 'get_weather', args: { town: 'Rome' } },
        ],
      }),
    ],
  };
}

const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', agent)
  .addNode('tools', switchyardToolNode({ dispatcher, maxConcurrentTools: 8 }))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile();

const final = await graph.invoke(
  { messages: [new HumanMessage('Weather in Oslo and Rome?')] },
  { configurable: { thread_id: 'example' } },
);
console.log(final.messages.at(-1)?.content);
for (const receipt of receipts) console.log(receipt.tool_call_id, receipt.status);
