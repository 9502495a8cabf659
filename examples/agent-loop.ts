// The agent loop guide's first example (docs/agent-loop.md): a scripted model calls a tool, reads its result, and answers.
// Run: npm run build && npx tsx examples/agent-loop.ts
// #region agent-loop
import { agentLoop, createToolRegistry, defineTool } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';

const multiply = defineTool<{ a: number; b: number }, number>({
  name: 'multiply',
  description: 'Multiply two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
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
    // A reply may be a function of the request: answer from the tool result the loop sent back.
    (request) => {
      const last = request.messages.at(-1);
      return { text: `17 × 23 = ${last?.role === 'tool' ? last.results[0]?.content : '?'}.` };
    },
  ],
});

const run = await agentLoop({
  task: 'What is 17 times 23?',
  model,
  tools: createToolRegistry([multiply]),
  maxConcurrentTools: 4,
});
console.log(run.status); // 'completed'
console.log(run.text); // '17 × 23 = 391.'
console.log(run.transcript.map((message) => message.role).join(' → ')); // user → assistant → tool → assistant
// #endregion agent-loop
