// Switchyard behind the Vercel AI SDK: the AI SDK drives the model, Switchyard runs every call.
// Run: npm run build && npx tsx examples/embedding-ai-sdk.ts
// With a real model, replace `model` by e.g. `openai('gpt-5-mini')` from '@ai-sdk/openai'.

import { aiSdkTools } from '@switchyard/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
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

const receipts: unknown[] = [];
const dispatcher = createDispatcher({
  registry: createToolRegistry([getWeather]),
  caller: composeToolCallers([withAuditLog(async (receipt) => void receipts.push(receipt))]),
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
// A scripted model: one step proposing a good call and a call with a misspelt argument, then text.
const model = new MockLanguageModelV4({
  doGenerate: [
    {
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"town":"Rome"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'Oslo is at 21 °C; I will ask again for Rome.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ],
});

const result = await generateText({
  model,
  prompt: 'Weather in Oslo and Rome?',
  stopWhen: stepCountIs(5),
  ...aiSdkTools({ dispatcher, maxConcurrentTools: 8, turn: { sessionId: 'example' } }),
});

console.log(result.text);
for (const part of result.steps[0]?.toolResults ?? []) {
  console.log(part.toolCallId, (part.output as { status: string }).status);
}
console.log(`${receipts.length} receipts`);
