import { createDispatcher, createToolRegistry, defineTool } from '../../src/index.js';

/** A tool with input examples (`search_docs`) beside one without (`plain`). */
export function toolsWithExamples() {
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
  return createDispatcher({ registry: createToolRegistry([search, plain]) });
}

/** `search_docs`'s examples as the adapters' frameworks take them natively: `[{ input }]`. */
export const SEARCH_DOCS_EXAMPLES = [
  { input: { query: 'retry policy', limit: 5 } },
  { input: { query: 'receipts' } },
];

/** `search_docs`'s description with its examples written in, for frameworks with no field of their own. */
export const SEARCH_DOCS_DESCRIBED =
  'Search the docs.\n\nInput examples:\n{"query":"retry policy","limit":5}\n{"query":"receipts"}';
