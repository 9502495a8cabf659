import { Agent, run } from '@openai/agents-core';
import { assistantMessage, ScriptedModel } from '@openai/agents-core/testing';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { openAIAgentsTools } from '../src/index.js';

const search = defineTool({
  name: 'search_docs',
  description: 'Search the docs.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    required: ['query'],
  } as const,
  inputExamples: [{ query: 'retry policy', limit: 5 }],
  handler: () => [],
});

describe('openAIAgentsTools and input examples', () => {
  it("writes a tool's inputExamples into the description the Runner sends the model", async () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([search]) });
    const set = openAIAgentsTools({ dispatcher });
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await run(
      new Agent({ name: 'assistant', model: set.model(model), tools: set.tools }),
      'find it',
    );
    expect(model.calls[0]?.request.tools).toMatchObject([
      {
        type: 'function',
        name: 'search_docs',
        description: 'Search the docs.\n\nInput examples:\n{"query":"retry policy","limit":5}',
      },
    ]);
  });
});
