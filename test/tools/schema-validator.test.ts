import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonSchema } from '../../src/tools/json.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

function ruleOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return (error as ToolDefinitionError).rule;
  }
  return undefined;
}

/** Shared where compile counts do not matter: building ajv instances is the slow part. */
const validator = new SchemaValidator();

const tuple = (dialect?: string): JsonSchema => ({
  ...(dialect === undefined ? {} : { $schema: dialect }),
  type: 'object',
  properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
});

describe('SchemaValidator dialects', () => {
  it('routes a 2020-12 schema to a validator that knows prefixItems', () => {
    expect(validator.check('t', tuple(DRAFT_2020), { pair: ['a', 1] }).valid).toBe(true);
    const bad = validator.check('t', tuple(DRAFT_2020), { pair: ['a', 'b'] });
    expect(bad.valid).toBe(false);
  });

  it('treats a schema without $schema as 2020-12, as MCP specifies', () => {
    expect(validator.check('t', tuple(), { pair: [1, 1] }).valid).toBe(false);
    expect(validator.check('t', tuple(), { pair: ['x', 1] }).valid).toBe(true);
  });

  it('compiles a draft-07 schema that declares draft-07 and validates with it', () => {
    const schema = {
      $schema: DRAFT_07,
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      definitions: { unused: { type: 'string' } },
    };
    expect(validator.check('t', schema, { pair: ['a', 1] }).valid).toBe(true);
    expect(validator.check('t', schema, { pair: [1, 1] }).valid).toBe(false);
  });

  it('compiles draft-06 and 2019-09 schemas too', () => {
    for (const dialect of [
      'http://json-schema.org/draft-06/schema#',
      'https://json-schema.org/draft/2019-09/schema',
    ]) {
      const schema = { $schema: dialect, type: 'object', properties: { n: { type: 'integer' } } };
      expect(validator.check('t', schema, { n: 1 }).valid).toBe(true);
      expect(validator.check('t', schema, { n: 'x' }).valid).toBe(false);
    }
  });

  it('rejects prefixItems under draft-07, proving the dialect is really routed', () => {
    expect(ruleOf(() => validator.compile('t', tuple(DRAFT_07)))).toBe('schema_invalid');
  });

  it('rejects an unsupported $schema with rule schema_dialect', () => {
    const schema = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
    expect(ruleOf(() => validator.compile('t', schema))).toBe('schema_dialect');
    expect(ruleOf(() => validator.compile('t', { $schema: 7, type: 'object' }))).toBe(
      'schema_dialect',
    );
  });
});

describe('SchemaValidator keywords', () => {
  it('tolerates vendor x-* keywords at any depth', () => {
    const schema = {
      type: 'object',
      'x-order': ['a'],
      properties: { a: { type: 'string', 'x-ui-widget': 'textarea' } },
    };
    expect(validator.check('t', schema, { a: 'ok' }).valid).toBe(true);
  });

  it('tolerates annotation keywords editors emit and unknown formats', () => {
    const schema = {
      type: 'object',
      deprecated: false,
      properties: {
        a: { type: 'string', example: 'x', markdownDescription: '*x*', format: 'vendor-id' },
      },
    };
    expect(validator.check('t', schema, { a: 'anything' }).valid).toBe(true);
  });

  it('validates known formats', () => {
    const schema = { type: 'object', properties: { when: { type: 'string', format: 'date' } } };
    expect(validator.check('t', schema, { when: '2026-01-31' }).valid).toBe(true);
    expect(validator.check('t', schema, { when: 'tomorrow' }).valid).toBe(false);
  });

  it('makes a typo keyword a definition error naming the keyword', () => {
    const spec = {
      name: 'typo',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } }, requried: ['a'] },
      handler: () => null,
    };
    expect(ruleOf(() => defineTool(spec))).toBe('schema_invalid');
    expect(() => defineTool(spec)).toThrow(/requried/);
  });

  it('lets two tools reuse one $id', () => {
    validator.compile('a', {
      $id: 'https://example.com/shared.json',
      type: 'object',
      properties: { a: {} },
    });
    expect(() =>
      validator.compile('b', {
        $id: 'https://example.com/shared.json',
        type: 'object',
        properties: { b: {} },
      }),
    ).not.toThrow();
  });

  it('rejects a schema that is not an object', () => {
    expect(ruleOf(() => validator.compile('t', [] as unknown as JsonSchema))).toBe('schema_type');
  });
});

describe('SchemaValidator cache', () => {
  const schema = {
    type: 'object',
    properties: { q: { type: 'string' }, n: { type: 'integer' } },
    required: ['q'],
  };

  it('compiles a schema once across many dispatches', async () => {
    const validator = new SchemaValidator();
    const registry = createToolRegistry(
      [
        {
          name: 'search',
          description: 'd',
          inputSchema: schema,
          handler: () => 'ok',
          safety: { readOnly: true },
        },
      ],
      { validator },
    );
    const dispatcher = createDispatcher({ registry });
    const compiled = validator.compileCount;
    expect(compiled).toBe(1);
    for (let index = 0; index < 200; index += 1) {
      const result = await dispatcher.dispatch({
        id: `c${index}`,
        name: 'search',
        arguments: index % 2 === 0 ? `{"q":"x","n":${index}}` : { q: 'y' },
      });
      expect(result.ok).toBe(true);
    }
    await dispatcher.dispatch({ id: 'bad', name: 'search', arguments: { n: 'x' } });
    expect(validator.compileCount).toBe(compiled);
  });

  it('does not recompile a structurally equal clone of a schema', () => {
    const validator = new SchemaValidator();
    const first = validator.compile('search', schema);
    const clone = structuredClone(schema);
    expect(validator.compile('search', clone)).toBe(first);
    // Key order does not matter either: the cache key is the canonical hash.
    const reordered = { required: ['q'], properties: schema.properties, type: 'object' };
    expect(validator.compile('search', reordered)).toBe(first);
    expect(validator.compileCount).toBe(1);
  });

  it('does not recompile when a tool is redefined with a cloned schema', () => {
    const validator = new SchemaValidator();
    const spec = { name: 'search', description: 'd', inputSchema: schema, handler: () => null };
    const registry = createToolRegistry([spec], { validator });
    registry.without('search').define({ ...spec, inputSchema: structuredClone(schema) });
    expect(validator.compileCount).toBe(1);
  });

  it('compiles different schemas separately', () => {
    const validator = new SchemaValidator();
    validator.compile('a', schema);
    validator.compile('a', { ...schema, required: [] });
    expect(validator.compileCount).toBe(2);
  });
});
