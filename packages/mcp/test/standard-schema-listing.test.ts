// A Standard Schema tool in the MCP server's listing: its converted input and output schemas.
import { createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolList } from '../src/index.js';

const weather = defineTool({
  name: 'weather',
  description: 'Current weather',
  inputSchema: z.object({ city: z.string().min(2), unit: z.enum(['c', 'f']).default('c') }),
  outputSchema: z.object({ city: z.string(), degrees: z.number() }),
  safety: { readOnly: true },
  handler: ({ city }) => ({ city, degrees: 21 }),
});

describe('a Standard Schema tool over MCP', () => {
  it('lists the converted input and output schemas', () => {
    const [listed] = mcpToolList(createToolRegistry([weather]));
    expect(listed?.inputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2 },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      required: ['city'],
    });
    expect(listed?.outputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, degrees: { type: 'number' } },
      required: ['city', 'degrees'],
      additionalProperties: false,
    });
  });
});
