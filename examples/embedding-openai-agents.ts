// Switchyard behind the OpenAI Agents SDK: the Runner drives the model, Switchyard runs every call.
// Run: npm run build && npx tsx examples/embedding-openai-agents.ts
// With a real model, drop `model` and wrap the provider instead:
//   new Runner({ modelProvider: set.modelProvider(new OpenAIProvider()) }) and `model: 'gpt-5-mini'`.
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { openAIAgentsTools } from '@switchyard/openai-agents';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  withAuditLog,
} from 'switchyard';

setTracingDisabled(true); // an offline example: no traces to export

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

// A scripted model: one step proposing a good call, a made-up tool and truncated JSON, then text.
// The Runner alone would throw on the made-up tool and answer the bad JSON itself.
const model = new ScriptedModel([
  [
    functionCall('get_weather', '{"city":"Oslo"}', { callId: 'c1' }),
    functionCall('get_forecast', '{"city":"Rome"}', { callId: 'c2' }),
    functionCall('get_weather', '{"city":', { callId: 'c3' }),
  ],
  [assistantMessage('Oslo is at 21 °C; I will ask again for Rome.')],
]);

const set = openAIAgentsTools({ dispatcher, maxConcurrentTools: 8 });
const agent = new Agent({
  name: 'weather',
  instructions: 'Answer with the weather tools.',
  model: set.model(model),
  tools: set.tools,
});

const result = await run(agent, 'Weather in Oslo and Rome?');
console.log(result.finalOutput);
for (const receipt of receipts) console.log(receipt.tool_call_id, receipt.status);
