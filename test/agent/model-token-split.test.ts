import { describe, expect, it } from 'vitest';
import { agentLoop, createToolRegistry, defineTool } from '../../src/index.js';
import { createScriptedModel } from '../../src/testing/index.js';

const search = defineTool({
  name: 'search',
  description: 'paid search',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  safety: { readOnly: true, spend: true },
  handler: (args, runtime) => {
    runtime.reportCost({ usd: 0.01 });
    return `hits for ${String(args.q)}`;
  },
});

describe('agentLoop: model tokens per call', () => {
  it('splits each turn’s tokens equally across its calls, the first calls taking the remainder', async () => {
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'a', name: 'search', arguments: { q: 'one' } },
            { id: 'b', name: 'search', arguments: { q: 'two' } },
            { id: 'c', name: 'search', arguments: { q: 'three' } },
          ],
          usage: { inputTokens: 90, outputTokens: 11 },
        },
        {
          toolCalls: [{ id: 'd', name: 'search', arguments: { q: 'four' } }],
          usage: { inputTokens: 120, outputTokens: 7 },
        },
        { text: 'done', usage: { inputTokens: 150, outputTokens: 3 } },
      ],
    });
    const run = await agentLoop({ task: 'look', model, tools: createToolRegistry([search]) });
    expect(run.results.map((result) => [result.toolCallId, result.usage])).toEqual([
      ['a', { toolCostUsd: 0.01, modelTokens: 34, modelInputTokens: 30, modelOutputTokens: 4 }],
      ['b', { toolCostUsd: 0.01, modelTokens: 34, modelInputTokens: 30, modelOutputTokens: 4 }],
      ['c', { toolCostUsd: 0.01, modelTokens: 33, modelInputTokens: 30, modelOutputTokens: 3 }],
      ['d', { toolCostUsd: 0.01, modelTokens: 127, modelInputTokens: 120, modelOutputTokens: 7 }],
    ]);
    expect(run.turns[0]?.results.map((result) => result.usage?.modelTokens)).toEqual([34, 34, 33]);
  });

  it('leaves the calls of a turn without usage as they are', async () => {
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ id: 'a', name: 'search', arguments: {} }] }, { text: 'done' }],
    });
    const run = await agentLoop({ task: 'look', model, tools: createToolRegistry([search]) });
    expect(run.results[0]?.usage).toEqual({ toolCostUsd: 0.01 });
  });
});
