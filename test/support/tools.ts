import { defineTool } from '../../src/index.js';

/** `add(a, b)`: a pure tool with a closed schema. */
export const addTool = defineTool<{ a: number; b: number }, number>({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'none' },
  handler: ({ a, b }) => a + b,
});

/** A tool with side effects that records what it was asked to write. */
export function writeTool(written: unknown[] = []) {
  return defineTool<{ path?: string; text?: string }, string>({
    name: 'write_file',
    description: 'Write a file',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, text: { type: 'string' } },
    },
    safety: { sideEffectLevel: 'workspace_write' },
    handler: (args) => {
      written.push(args);
      return 'written';
    },
  });
}
