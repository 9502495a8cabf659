// The `add` tool of the peers cases (bench/peers.bench.ts, and support/one-step.mjs for instruction
// counts): its JSON Schema, which the frameworks' own tools take as well, and the Switchyard tool.
import { defineTool } from 'switchyard';

export const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

export const peersAdd = defineTool({
  name: 'add',
  description: 'Add two numbers',
  inputSchema: ADD_SCHEMA,
  safety: { readOnly: true },
  handler: ({ a, b }) => a + b,
});
