// The `add` tool that bench/cli-throughput.bench.ts dispatches through `switchyard run --tools`:
// the CLI's built-in tools are the stdlib set, whose output schemas would change what is measured.
import { defineTool } from '../../dist/index.js';

export default [
  defineTool({
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
  }),
];
