// One case of bench/peers.bench.ts in a process that loads nothing else, for instruction counts
// (bench/instructions-per-call.sh): the heap holds one framework only, so counts under callgrind
// move far less from run to run than in the bench's own process, which loads all of them.
//   CASE: agents-own | agents-zod | agents-adapter | ai-sdk-own | ai-sdk-zod | ai-sdk-adapter
//   N calls in the step (default 10); WARMUP (default 60) + ITERATIONS steps are run.

import { createDispatcher, createToolRegistry } from 'switchyard';
import { z } from 'zod';
import { ADD_SCHEMA, peersAdd } from './peers-add.mjs';

const CASE = process.env.CASE ?? '';
const N = Number(process.env.N ?? 10);
const dispatcher = createDispatcher({ registry: createToolRegistry([peersAdd]) });
// The zod schemas as the peers bench writes them: the AI SDK's strict, the Agents SDK's plain.
const zodOf = (strict) => {
  const schema = z.object({ a: z.number(), b: z.number() });
  return strict ? schema.strict() : schema;
};

async function agentsStep() {
  const { Agent, run, setTracingDisabled, tool } = await import('@openai/agents-core');
  const { assistantMessage, functionCall, ScriptedModel } = await import(
    '@openai/agents-core/testing'
  );
  setTracingDisabled(true);
  const calls = Array.from({ length: N }, (_, index) =>
    functionCall('add', `{"a":${index},"b":1}`, { callId: `c${index}` }),
  );
  const model = () => new ScriptedModel([calls, [assistantMessage('done')]]);
  const execute = async ({ a, b }) => a + b;
  if (CASE === 'agents-adapter') {
    const { openAIAgentsTools } = await import('@switchyard/openai-agents');
    const set = openAIAgentsTools({ dispatcher });
    return () => run(new Agent({ name: 'a', model: set.model(model()), tools: set.tools }), 'p');
  }
  const own =
    CASE === 'agents-zod'
      ? tool({ name: 'add', description: 'Add two numbers', parameters: zodOf(false), execute })
      : tool({
          name: 'add',
          description: 'Add two numbers',
          parameters: ADD_SCHEMA,
          strict: false,
          execute,
        });
  return () => run(new Agent({ name: 'a', model: model(), tools: [own] }), 'p');
}

async function aiSdkStep() {
  const { generateText, jsonSchema, stepCountIs, tool } = await import('ai');
  const { MockLanguageModelV4 } = await import('ai/test');
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const content = Array.from({ length: N }, (_, index) => ({
    type: 'tool-call',
    toolCallId: `c${index}`,
    toolName: 'add',
    input: `{"a":${index},"b":1}`,
  }));
  const finish = (unified) => ({ unified, raw: unified });
  const model = () =>
    new MockLanguageModelV4({
      doGenerate: [
        { content, finishReason: finish('tool-calls'), usage, warnings: [] },
        {
          content: [{ type: 'text', text: 'done' }],
          finishReason: finish('stop'),
          usage,
          warnings: [],
        },
      ],
    });
  let tools;
  if (CASE === 'ai-sdk-adapter') {
    const { aiSdkTools } = await import('@switchyard/ai-sdk');
    tools = aiSdkTools({ dispatcher });
  } else {
    const inputSchema = CASE === 'ai-sdk-zod' ? zodOf(true) : jsonSchema(ADD_SCHEMA);
    tools = {
      tools: {
        add: tool({
          description: 'Add two numbers',
          inputSchema,
          execute: async ({ a, b }) => a + b,
        }),
      },
    };
  }
  return () => generateText({ model: model(), prompt: 'p', stopWhen: stepCountIs(2), ...tools });
}

const step = CASE.startsWith('agents-')
  ? await agentsStep()
  : CASE.startsWith('ai-sdk-')
    ? await aiSdkStep()
    : null;
if (step === null) throw new Error(`no case ${CASE}`);
const total = Number(process.env.WARMUP ?? 60) + Number(process.env.ITERATIONS ?? 0);
for (let index = 0; index < total; index += 1) await step();
