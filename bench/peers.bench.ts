/**
 * One model step of N trivial tool calls (N = 1, 10, 100), per call, through:
 *   Switchyard's `dispatchTurn` alone;
 *   the AI SDK's `generateText` (a mock model: one step of N calls, then text) with plain AI SDK
 *   tools, and with `aiSdkTools` (Switchyard running the calls);
 *   LangGraph's `ToolNode` over LangChain tools, and `switchyardToolNode`, each invoked on a state
 *   whose last AI message proposes the N calls.
 * Target: a framework with the Switchyard adapter costs no more per call than the framework alone.
 *
 * Run: npm run build && tsx bench/peers.bench.ts
 */
import { AIMessage } from '@langchain/core/messages';
import { tool as langchainTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Bench } from 'tinybench';
import { aiSdkTools } from '../dist/adapters/ai-sdk/index.js';
import { switchyardToolNode } from '../dist/adapters/langchain/index.js';
import { meanMs } from './support/report.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
} from './support/switchyard.js';

const SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'] as string[],
  additionalProperties: false,
} as const;
const add = defineTool<{ a: number; b: number }, number>({
  name: 'add',
  description: 'Add two numbers',
  inputSchema: SCHEMA,
  safety: { readOnly: true },
  handler: ({ a, b }) => a + b,
});
const dispatcher = createDispatcher({ registry: createToolRegistry([add]) });
const aiSdkAdd = tool({
  description: 'Add two numbers',
  inputSchema: jsonSchema<{ a: number; b: number }>(SCHEMA as never),
  execute: async ({ a, b }) => a + b,
});
const langchainAdd = langchainTool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
  name: 'add',
  description: 'Add two numbers',
  schema: SCHEMA as never,
});
const toolNode = new ToolNode([langchainAdd]);
const switchyardNode = switchyardToolNode({ dispatcher });
// Built once and reused across runs, as an application would.
const switchyardAiSdkTools = aiSdkTools({ dispatcher });

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

const rows: Record<string, string>[] = [];
for (const n of [1, 10, 100]) {
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
  const bench = new Bench({ time: 1000, warmup: true });
  bench
    .add('switchyard dispatchTurn', async () => {
      await dispatchTurn(calls, { dispatcher });
    })
    .add('ai sdk generateText, its own tools', async () => {
      await generateText({
        model: newModel(),
        prompt: 'p',
        stopWhen: stepCountIs(2),
        tools: { add: aiSdkAdd },
      });
    })
    .add('ai sdk generateText + aiSdkTools', async () => {
      await generateText({
        model: newModel(),
        prompt: 'p',
        stopWhen: stepCountIs(2),
        ...switchyardAiSdkTools,
      });
    })
    .add('langgraph ToolNode', async () => {
      await toolNode.invoke(state);
    })
    .add('switchyardToolNode', async () => {
      await switchyardNode(state);
    });
  await bench.run();
  for (const task of bench.tasks) {
    rows.push({
      N: String(n),
      case: task.name,
      'µs per call': ((meanMs(bench, task.name) * 1000) / n).toFixed(1),
    });
  }
}
console.table(rows);
const perCall = (n: string, name: string) =>
  Number(rows.find((row) => row.N === n && row.case === name)?.['µs per call']);
for (const n of ['1', '10', '100']) {
  const aiSdk =
    perCall(n, 'ai sdk generateText + aiSdkTools') /
    perCall(n, 'ai sdk generateText, its own tools');
  const langgraph = perCall(n, 'switchyardToolNode') / perCall(n, 'langgraph ToolNode');
  console.log(
    `N=${n}: AI SDK with the adapter ${aiSdk.toFixed(2)}× alone; LangGraph with the node ${langgraph.toFixed(2)}× ToolNode (target ≤ 1.0×)`,
  );
}
