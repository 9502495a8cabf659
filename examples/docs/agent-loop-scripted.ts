// docs/agent-loop.md: an agent loop on the built-in scripted model, no keys needed.
// Run: npm run build && npx tsx examples/docs/agent-loop-scripted.ts
// #region scripted-run
import { agentLoop, createToolRegistry, defineTool } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';

const multiply = defineTool<{ a: number; b: number }, number>({
  name: 'multiply',
  description: 'Multiply two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  safety: { readOnly: true },
  handler: ({ a, b }) => a * b,
});
const model = createScriptedModel({
  turns: [
    {
      text: 'Let me compute that.',
      toolCalls: [{ name: 'multiply', arguments: { a: 17, b: 23 } }],
    },
    (request) => {
      const last = request.messages.at(-1); // the tool results the loop sent back
      return { text: `17 × 23 = ${last?.role === 'tool' ? last.results[0]?.content : '?'}.` };
    },
  ],
});
const run = await agentLoop({
  task: 'What is 17 times 23?',
  model,
  tools: createToolRegistry([multiply]),
});
console.log(run.status); // 'completed'
console.log(run.text); // '17 × 23 = 391.'
console.log(run.transcript.length); // user → assistant (with its calls) → tool results → assistant
// #endregion scripted-run
