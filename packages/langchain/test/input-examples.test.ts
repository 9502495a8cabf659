import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { switchyardToolNode } from '../src/index.js';

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

describe('switchyardToolNode and input examples', () => {
  it("writes a tool's inputExamples into the description a bound model is sent", () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([search]) });
    const node = switchyardToolNode({ dispatcher });
    // What LangChain's chat models do with `bindTools(node.tools)` before a request.
    const [bound] = node.tools.map((each) => convertToOpenAITool(each as never));
    expect(bound?.function).toMatchObject({
      name: 'search_docs',
      description: 'Search the docs.\n\nInput examples:\n{"query":"retry policy","limit":5}',
    });
  });
});
