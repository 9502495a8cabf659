import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRegistry, defineTool, ToolDefinitionError } from '../../src/index.js';
import { describeWithExamples } from '../../src/tools/index.js';
import { thrownBy } from '../support/thrown-by.js';

const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    filters: {
      type: 'object',
      properties: { after: { type: 'string', format: 'date' } },
      additionalProperties: false,
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

function search(inputExamples: unknown) {
  return defineTool({
    name: 'search',
    description: 'Search the docs.',
    inputSchema: searchSchema,
    inputExamples: inputExamples as never,
    handler: () => [],
  });
}

describe('inputExamples', () => {
  it('are checked, copied and carried to the model definitions', () => {
    const examples = [{ query: 'retry' }, { query: 'journal', filters: { after: '2026-01-01' } }];
    const tool = search(examples);
    examples[0]!.query = 'changed';
    examples[1]!.filters!.after = '1999-01-01';

    expect(tool.inputExamples).toEqual([
      { query: 'retry' },
      { query: 'journal', filters: { after: '2026-01-01' } },
    ]);
    expect(Object.isFrozen(tool.inputExamples)).toBe(true);
    const [definition] = createToolRegistry([tool]).modelDefinitions();
    expect(definition?.inputExamples).toBe(tool.inputExamples);
  });

  it('leave a tool without examples with none on its definition', () => {
    const [definition] = createToolRegistry([search(undefined)]).modelDefinitions();
    expect(definition).not.toHaveProperty('inputExamples');
    expect(search([]).inputExamples).toBeUndefined();
  });

  it.each([
    [{ query: 'x' }, 'inputExamples must be an array of argument objects'],
    [['x'], 'inputExamples[0] must be an object of arguments'],
    [[{ query: 'ok' }, { query: 3 }], 'inputExamples[1] does not match the input schema'],
    [
      [{ query: 'ok', filters: { after: 'soon' } }],
      'inputExamples[0] does not match the input schema',
    ],
    [[{ query: 'ok', limit: 5 }], 'inputExamples[0] does not match the input schema'],
  ])('refuse %j when the tool is defined', (examples, message) => {
    const error = thrownBy(() => search(examples));
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error).toMatchObject({ rule: 'input_examples', toolName: 'search' });
    expect((error as Error).message).toContain(message);
  });

  it('are checked by the library of a Standard Schema tool', () => {
    const define = (query: string) =>
      defineTool({
        name: 'find',
        description: 'Find',
        inputSchema: z.object({ query: z.string().min(3) }),
        inputExamples: [{ query }],
        handler: () => [],
      });
    expect(define('long enough').inputExamples).toEqual([{ query: 'long enough' }]);
    expect(thrownBy(() => define('no'))).toMatchObject({ rule: 'input_examples' });
  });
});

describe('describeWithExamples', () => {
  it('writes one example a line after the description', () => {
    expect(
      describeWithExamples('Search the docs.', [{ query: 'a' }, { query: 'b', limit: 2 }]),
    ).toBe('Search the docs.\n\nInput examples:\n{"query":"a"}\n{"query":"b","limit":2}');
  });

  it('returns the description alone without examples, and the examples alone without one', () => {
    expect(describeWithExamples('Search.', undefined)).toBe('Search.');
    expect(describeWithExamples('Search.', [])).toBe('Search.');
    expect(describeWithExamples('', [{ q: 1 }])).toBe('Input examples:\n{"q":1}');
  });
});
