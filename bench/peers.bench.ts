/**
 * One model step of N trivial tool calls (N = 1, 10, 100), per call, through:
 *   Switchyard's `dispatchTurn` alone;
 *   the AI SDK's `generateText` (a mock model: one step of N calls, then text) with plain AI SDK
 *   tools (a JSON Schema it takes on trust, and a zod schema it validates input against), and with
 *   `aiSdkTools` (Switchyard running the calls, validating each);
 *   LangGraph's `ToolNode` over LangChain tools, and `switchyardToolNode` over a Switchyard tool
 *   and over the same LangChain tools (`fromLangChainTools`), each invoked on a state whose last
 *   AI message proposes the N calls;
 *   the OpenAI Agents SDK's `run` (its `ScriptedModel`: one step of N calls, then text) with a plain
 *   Agents function tool (a JSON Schema it takes on trust, and a zod schema it validates), and with `openAIAgentsTools` (Switchyard running the calls). Tracing is
 *   off for both, as it would only add export work.
 * Target: a framework with the Switchyard adapter costs no more per call than the framework alone.
 *
 * Each N runs in ROUNDS rounds (default 5) of every case; a case's figure is the median over the
 * rounds of its mean iteration (GC pauses included), and a ratio is the median of the rounds' ratios, so a burst of
 * work from a neighbour moves one round, not the verdict. The spread shows the rounds' extremes.
 *
 * Run: npm run build && tsx bench/peers.bench.ts   (ROUNDS=n)
 * One case alone (instruction counts, profiles): CASE='<case name>' N=10 ITERATIONS=300 node --import tsx bench/peers.bench.ts
 */
import { AIMessage } from '@langchain/core/messages';
import { tool as langchainTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { Agent, tool as agentsTool, run, setTracingDisabled } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { aiSdkTools } from '@switchyard/ai-sdk';
import { fromLangChainTools, switchyardToolNode } from '@switchyard/langchain';
import { openAIAgentsTools } from '@switchyard/openai-agents';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { ADD_SCHEMA, peersAdd } from './support/peers-add.mjs';
import { meanMs, median } from './support/report.js';
import { createDispatcher, createToolRegistry, dispatchTurn } from './support/switchyard.js';

const dispatcher = createDispatcher({ registry: createToolRegistry([peersAdd]) });
const aiSdkAdd = tool({
  description: 'Add two numbers',
  inputSchema: jsonSchema<{ a: number; b: number }>(ADD_SCHEMA as never),
  execute: async ({ a, b }) => a + b,
});
// The same tool as an AI SDK user usually writes it, with a zod schema the AI SDK validates each
// call's input against (a JSON Schema without `validate`, above, is taken on trust): Switchyard
// validates every call, so this is the like-for-like baseline of the adapter.
const aiSdkZodAdd = tool({
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }).strict(),
  execute: async ({ a, b }) => a + b,
});
const langchainAdd = langchainTool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
  name: 'add',
  description: 'Add two numbers',
  schema: ADD_SCHEMA as never,
});
const toolNode = new ToolNode([langchainAdd]);
const switchyardNode = switchyardToolNode({ dispatcher });
// The same LangChain tool run by the node, as an application moving from ToolNode would have it.
const switchyardLangChainNode = switchyardToolNode({
  dispatcher: createDispatcher({
    registry: createToolRegistry(fromLangChainTools([langchainAdd])),
  }),
});
// Built once and reused across runs, as an application would.
const switchyardAiSdkTools = aiSdkTools({ dispatcher });

setTracingDisabled(true);
const agentsAdd = agentsTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: ADD_SCHEMA as never,
  strict: false,
  execute: async ({ a, b }: { a: number; b: number }) => a + b,
});
// With a zod schema the Agents SDK validates each call's input (the JSON Schema above, not strict,
// it takes on trust): the like-for-like baseline of the adapter, as for the AI SDK.
const agentsZodAdd = agentsTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
const switchyardAgentsTools = openAIAgentsTools({ dispatcher });

function agentsModelOf(n: number) {
  const calls = Array.from({ length: n }, (_, index) =>
    functionCall('add', `{"a":${index},"b":1}`, { callId: `c${index}` }),
  );
  return () => new ScriptedModel([calls, [assistantMessage('done')]]);
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function modelOf(n: number) {
  const content = Array.from({ length: n }, (_, index) => ({
    type: 'tool-call' as const,
    toolCallId: `c${index}`,
    toolName: 'add',
    input: `{"a":${index},"b":1}`,
  }));
  return () =>
    new MockLanguageModelV4({
      doGenerate: [
        {
          content,
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        },
      ],
    });
}

/** Every case of one step of N calls, by name: one iteration runs the step once. */
function casesOf(n: number): Map<string, () => Promise<void>> {
  const calls = Array.from({ length: n }, (_, index) => ({
    id: `c${index}`,
    name: 'add',
    arguments: `{"a":${index},"b":1}`,
  }));
  const state = {
    messages: [
      new AIMessage({
        content: '',
        tool_calls: calls.map((call, index) => ({
          id: call.id,
          name: 'add',
          args: { a: index, b: 1 },
        })),
      }),
    ],
  };
  const newModel = modelOf(n);
  const newAgentsModel = agentsModelOf(n);
  return new Map<string, () => Promise<void>>([
    [
      'switchyard dispatchTurn',
      async () => {
        await dispatchTurn(calls, { dispatcher });
      },
    ],
    [
      'ai sdk generateText, its own tools',
      async () => {
        await generateText({
          model: newModel(),
          prompt: 'p',
          stopWhen: stepCountIs(2),
          tools: { add: aiSdkAdd },
        });
      },
    ],
    [
      'ai sdk generateText, its own zod tools',
      async () => {
        await generateText({
          model: newModel(),
          prompt: 'p',
          stopWhen: stepCountIs(2),
          tools: { add: aiSdkZodAdd },
        });
      },
    ],
    [
      'ai sdk generateText + aiSdkTools',
      async () => {
        await generateText({
          model: newModel(),
          prompt: 'p',
          stopWhen: stepCountIs(2),
          ...switchyardAiSdkTools,
        });
      },
    ],
    [
      'langgraph ToolNode',
      async () => {
        await toolNode.invoke(state);
      },
    ],
    [
      'switchyardToolNode',
      async () => {
        await switchyardNode.invoke(state);
      },
    ],
    [
      'switchyardToolNode over the LangChain tools',
      async () => {
        await switchyardLangChainNode.invoke(state);
      },
    ],
    [
      'openai agents run, its own tools',
      async () => {
        await run(new Agent({ name: 'a', model: newAgentsModel(), tools: [agentsAdd] }), 'p');
      },
    ],
    [
      'openai agents run, its own zod tools',
      async () => {
        await run(new Agent({ name: 'a', model: newAgentsModel(), tools: [agentsZodAdd] }), 'p');
      },
    ],
    [
      'openai agents run + openAIAgentsTools',
      async () => {
        const model = switchyardAgentsTools.model(newAgentsModel());
        await run(new Agent({ name: 'a', model, tools: switchyardAgentsTools.tools }), 'p');
      },
    ],
  ]);
}

// One case alone, for instruction counts and profiles (`valgrind --tool=callgrind node --import tsx
// bench/peers.bench.ts` with CASE, N and ITERATIONS; the difference between two ITERATIONS values
// leaves start-up out). WARMUP iterations (default 300) run first.
if (process.env.CASE !== undefined) {
  const step = casesOf(Number(process.env.N ?? 10)).get(process.env.CASE);
  if (step === undefined) throw new Error(`no case ${process.env.CASE}`);
  const iterations = Number(process.env.WARMUP ?? 300) + Number(process.env.ITERATIONS ?? 0);
  for (let index = 0; index < iterations; index += 1) await step();
  process.exit(0);
}

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PAIRS = [
  ['AI SDK', 'ai sdk generateText + aiSdkTools', 'ai sdk generateText, its own tools'],
  [
    'AI SDK (zod tools: both validate)',
    'ai sdk generateText + aiSdkTools',
    'ai sdk generateText, its own zod tools',
  ],
  ['LangGraph', 'switchyardToolNode', 'langgraph ToolNode'],
  [
    'LangGraph (the same LangChain tools)',
    'switchyardToolNode over the LangChain tools',
    'langgraph ToolNode',
  ],
  ['OpenAI Agents', 'openai agents run + openAIAgentsTools', 'openai agents run, its own tools'],
  [
    'OpenAI Agents (zod tools: both validate)',
    'openai agents run + openAIAgentsTools',
    'openai agents run, its own zod tools',
  ],
] as const;
const rows: Record<string, string>[] = [];
const verdicts: string[] = [];
for (const n of [1, 10, 100]) {
  const cases = casesOf(n);
  const rounds: Map<string, number>[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const bench = new Bench({ time: 300, warmup: true });
    for (const [name, step] of cases) bench.add(name, step);
    await bench.run();
    rounds.push(
      new Map(bench.tasks.map((task) => [task.name, (meanMs(bench, task.name) * 1000) / n])),
    );
  }
  for (const name of rounds[0]?.keys() ?? []) {
    const perCall = rounds.map((round) => round.get(name) ?? Number.NaN);
    rows.push({
      N: String(n),
      case: name,
      'µs per call': median(perCall).toFixed(1),
      'rounds min–max': `${Math.min(...perCall).toFixed(1)}–${Math.max(...perCall).toFixed(1)}`,
    });
  }
  const ratios = PAIRS.map(([framework, adapted, alone]) => {
    const each = rounds.map(
      (round) => (round.get(adapted) ?? Number.NaN) / (round.get(alone) ?? Number.NaN),
    );
    return `${framework} with Switchyard ${median(each).toFixed(2)}× alone (rounds ${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)})`;
  });
  verdicts.push(`N=${n}: ${ratios.join('; ')}`);
}
console.table(rows);
for (const verdict of verdicts) console.log(verdict);
console.log('target: ≤ 1.00× for each framework');
