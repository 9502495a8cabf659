import { defineTool } from '../../src/index.js';

/** `add(a, b)`: a pure tool with a closed schema (the batch runner's own). */
export { addTool } from '../../src/cli/example-tools.js';

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
