// Input examples in the MCP server's listing: MCP has no field for them, the description says them.
import { createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { mcpToolList } from '../src/index.js';

describe('a tool with input examples over MCP', () => {
  it('lists its examples in the description', () => {
    const [listed] = mcpToolList(
      createToolRegistry([
        defineTool({
          name: 'weather',
          description: 'Current weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
          inputExamples: [{ city: 'Oslo' }, {}],
          handler: () => 21,
        }),
      ]),
    );
    expect(listed?.description).toBe('Current weather\n\nInput examples:\n{"city":"Oslo"}\n{}');
  });
});
