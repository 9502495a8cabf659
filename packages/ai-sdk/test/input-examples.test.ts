import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/index.js';
import { textResponse } from './ai-sdk-support.js';

const search = defineTool({
  name: 'search_docs',
  description: 'Search the docs.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    required: ['query'],
  } as const,
  inputExamples: [{ query: 'retry policy', limit: 5 }, { query: 'receipts' }],
  handler: () => [],
});

const plain = defineTool({
  name: 'plain',
  description: 'No examples.',
  inputSchema: { type: 'object', properties: {} } as const,
  handler: () => null,
});

describe('aiSdkTools and input examples', () => {
  it("sends a tool's inputExamples in the AI SDK's own field, as the model is sent them", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [textResponse('done')] });
    const dispatcher = createDispatcher({ registry: createToolRegistry([search, plain]) });
    await generateText({ model, prompt: 'find it', ...aiSdkTools({ dispatcher }) });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    expect(sent.find((each) => each.name === 'search_docs')).toMatchObject({
      type: 'function',
      description: 'Search the docs.',
      inputExamples: [
        { input: { query: 'retry policy', limit: 5 } },
        { input: { query: 'receipts' } },
      ],
    });
    expect(sent.find((each) => each.name === 'plain')).not.toHaveProperty('inputExamples');
  });
});
