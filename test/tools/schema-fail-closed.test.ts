import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { InvalidOptionError, ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonSchema } from '../../src/tools/json.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import { createToolRegistry, type ToolRegistryOptions } from '../../src/tools/tool-registry.js';
import { thrownBy } from '../support/thrown-by.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** A dispatcher over one tool `t` with this schema; `runs` counts handler runs. */
function oneTool(inputSchema: JsonSchema, options: ToolRegistryOptions = {}) {
  const runs: unknown[] = [];
  const tool = {
    name: 't',
    description: 'd',
    inputSchema,
    safety: { readOnly: true },
    handler: (args: unknown) => {
      runs.push(args);
      return 'ran';
    },
  };
  const dispatcher = createDispatcher({ registry: createToolRegistry([tool], options) });
  const dispatch = (args: unknown) =>
    dispatcher.dispatch({
      id: 'c1',
      name: 't',
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    });
  return { dispatch, runs };
}

async function verdict(inputSchema: JsonSchema, args: unknown): Promise<string> {
  const result = await oneTool(inputSchema).dispatch(args);
  return result.ok ? 'ok' : result.status;
}

describe('inherited properties never count as present', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'required: ["%s"] refuses {} and the handler never runs',
    async (key) => {
      const { dispatch, runs } = oneTool({ type: 'object', required: [key] });
      const result = await dispatch({});
      expect(result.ok).toBe(false);
      expect(result.status).toBe('schema_violation');
      expect(result.error).toContain(key);
      expect(runs).toEqual([]);
      expect((await dispatch(`{"${key}": 1}`)).ok).toBe(true);
    },
  );

  it('does not check an inherited constructor against the property schema', async () => {
    const schema = { type: 'object', properties: { constructor: { type: 'number' } } };
    expect(await verdict(schema, {})).toBe('ok');
    expect(await verdict(schema, { constructor: 'x' })).toBe('schema_violation');
  });
});

describe('schemas the drafts allow, which strict mode refused', () => {
  const cases: Array<[string, JsonSchema, unknown, unknown]> = [
    [
      '$anchor',
      {
        type: 'object',
        properties: { n: { $ref: '#count' } },
        $defs: { count: { $anchor: 'count', type: 'integer' } },
      },
      { n: 1 },
      { n: 'x' },
    ],
    [
      'if without then or else',
      { type: 'object', if: { required: ['a'] }, properties: { a: { type: 'string' } } },
      { a: 'x' },
      { a: 1 },
    ],
    [
      'a property that also matches patternProperties',
      {
        type: 'object',
        properties: { foo: { type: 'string' } },
        patternProperties: { 'f.o': { minLength: 2 } },
      },
      { foo: 'ab' },
      { foo: 'a' },
    ],
    [
      'minContains 0 without maxContains',
      {
        type: 'object',
        properties: { list: { type: 'array', contains: { const: 1 }, minContains: 0 } },
      },
      { list: [2] },
      { list: 'x' },
    ],
    [
      'maxContains without contains',
      { type: 'object', properties: { list: { type: 'array', maxContains: 1, maxItems: 2 } } },
      { list: [1, 1] },
      { list: [1, 1, 1] },
    ],
    [
      'draft-07 additionalItems beside a schema-valued items',
      {
        $schema: DRAFT_07,
        type: 'object',
        properties: { list: { items: { type: 'integer' }, additionalItems: false } },
      },
      { list: [1, 2, 3] },
      { list: [1, 'x'] },
    ],
    [
      'embedded $ids that reference each other',
      {
        type: 'object',
        properties: { a: { $ref: 'https://example.com/a.json' } },
        $defs: {
          a: { $id: 'https://example.com/a.json', $ref: 'b.json' },
          b: { $id: 'https://example.com/b.json', type: 'string' },
        },
      },
      { a: 'x' },
      { a: 1 },
    ],
    [
      'a reference to the root ("#"), as recursive tool schemas write it',
      {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      },
      { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] },
      { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] },
    ],
    [
      'an embedded resource that refers back to the root by a relative URI',
      {
        $id: 'https://example.com/tree',
        type: 'object',
        properties: { root: { $ref: 'node' } },
        $defs: {
          node: {
            $id: 'node',
            type: 'object',
            properties: { kids: { type: 'array', items: { $ref: 'tree#/$defs/node' } } },
            additionalProperties: false,
          },
        },
      },
      { root: { kids: [{ kids: [] }] } },
      { root: { kids: [{ kid: [] }] } },
    ],
  ];

  it.each(cases)('accepts %s and validates with it', async (_name, schema, valid, invalid) => {
    expect(await verdict(schema, valid)).toBe('ok');
    expect(await verdict(schema, invalid)).toBe('schema_violation');
  });

  it('treats unknown keywords that are no slip of a known one as annotations', async () => {
    const schema = {
      type: 'object',
      'x-order': ['a'],
      widget: 'textarea',
      properties: { a: { type: 'string', ui: { hidden: true } } },
    };
    expect(await verdict(schema, { a: 'x' })).toBe('ok');
  });
});

describe('keywords that would silently validate nothing are definition errors', () => {
  function refusal(inputSchema: JsonSchema): ToolDefinitionError {
    const error = thrownBy(() =>
      defineTool({ name: 't', description: 'd', inputSchema, handler: () => null }),
    );
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).rule).toBe('schema_invalid');
    return error as ToolDefinitionError;
  }

  it('names a typo, where it is, and the keyword it is a slip of', () => {
    const error = refusal({
      type: 'object',
      properties: { a: { type: 'string' } },
      requried: ['a'],
    });
    expect(error.message).toContain('"requried" at # is unknown; did you mean "required"?');
    const nested = refusal({ type: 'object', properties: { a: { type: 'string', maxlength: 3 } } });
    expect(nested.message).toContain('"maxlength" at #/properties/a');
    expect(nested.message).toContain('"maxLength"');
    expect(refusal({ type: 'object', propertys: {} }).message).toContain('"properties"');
  });

  it("refuses another draft's keyword, which this dialect ignores", () => {
    const draft07 = {
      $schema: DRAFT_07,
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } },
    };
    expect(refusal(draft07).message).toMatch(/"prefixItems" .* 2020-12 keyword, not a draft-07/);
    const modern = { type: 'object', properties: { list: { additionalItems: false } } };
    expect(refusal(modern).message).toContain('"additionalItems"');
  });

  it('never reads data (enum, const, default, examples) as keywords', async () => {
    const schema = {
      type: 'object',
      properties: { a: { enum: [{ requried: 1 }], default: { propertys: 1 } } },
      examples: [{ maxlength: 1 }],
      const: { requried: 1 },
    };
    expect(await verdict(schema, { requried: 1 })).toBe('ok');
  });
});

describe('a validator that fails yields a result', () => {
  it('resolves to schema_violation when ajv overflows its stack on $dynamicRef with unevaluated*', async () => {
    // From the JSON-Schema-Test-Suite ("unevaluatedProperties with $dynamicRef").
    const schema = {
      $id: 'https://example.com/unevaluated-dynamic-ref',
      type: 'object',
      $ref: './baseSchema',
      $defs: {
        derived: { $dynamicAnchor: 'addons', properties: { bar: { type: 'string' } } },
        baseSchema: {
          $id: './baseSchema',
          $comment: 'the dynamic anchor is resolved from outside this resource',
          type: 'object',
          properties: { foo: { type: 'string' } },
          $dynamicRef: '#addons',
          $defs: {
            defaultAddons: {
              $comment: 'Needed to satisfy the bookending',
              $dynamicAnchor: 'addons',
            },
          },
        },
      },
    };
    const { dispatch, runs } = oneTool(schema);
    const result = await dispatch({ foo: 'foo', bar: 'bar' });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('(arguments)');
    expect(runs).toEqual([]);
  });

  it('refuses arguments nested deeper than a recursive schema can check', async () => {
    const schema = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } },
    };
    const depth = 50_000;
    const { dispatch, runs } = oneTool(schema);
    const result = await dispatch(`{"tree":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('nested too deeply');
    expect(runs).toEqual([]);
    expect((await dispatch({ tree: [[], [[]]] })).ok).toBe(true);
  });

  it.each([
    ['type', { type: 'string' }],
    ['const', { const: 1 }],
    ['enum', { enum: [1, 'x'] }],
    ['deep const', { const: [[[1]]] }],
  ])('refuses arguments too deep to print in the repair message (%s)', async (_, property) => {
    const depth = 100_000;
    const schema = { type: 'object', properties: { a: property } };
    const text = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    // The validator itself, as middleware and direct users call it on model output.
    const check = new SchemaValidator().check('t', schema, JSON.parse(text));
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.repair).toMatch(/a: .*too deeply nested to show/);
    const { dispatch, runs } = oneTool(schema);
    expect((await dispatch(text)).status).toBe('schema_violation');
    expect(runs).toEqual([]);
  });
});

describe('format', () => {
  const schema = {
    type: 'object',
    properties: { to: { type: 'string', format: 'email' }, id: { format: 'vendor-id' } },
  };

  it('is asserted by default: a malformed email is a schema_violation', async () => {
    expect(await verdict(schema, { to: 'a@example.com', id: 'anything' })).toBe('ok');
    const result = await oneTool(schema).dispatch({ to: 'not an email' });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('format "email"');
  });

  it('is an annotation when the registry says formats: "annotate"', async () => {
    const { dispatch } = oneTool(schema, { formats: 'annotate' });
    expect((await dispatch({ to: 'not an email' })).ok).toBe(true);
  });

  it('refuses a bad formats option, or one that contradicts the given validator', () => {
    const bad = thrownBy(() => new SchemaValidator({ formats: 'maybe' as 'assert' }));
    expect(bad).toBeInstanceOf(InvalidOptionError);
    expect((bad as InvalidOptionError).option).toBe('formats');
    const clash = thrownBy(() =>
      createToolRegistry([], { validator: new SchemaValidator(), formats: 'annotate' }),
    );
    expect((clash as InvalidOptionError).option).toBe('formats');
  });
});

describe('schema resources', () => {
  it('resolves a $ref to a schema registered by URI, and never fetches one', async () => {
    const validator = new SchemaValidator({
      schemas: { 'https://example.com/point.json': { type: 'array', prefixItems: [{}, {}] } },
    });
    const schema = {
      type: 'object',
      properties: {
        at: { $ref: 'https://example.com/point.json', items: { type: 'number' }, maxItems: 2 },
      },
    };
    expect(validator.check('t', schema, { at: [1, 2] }).valid).toBe(true);
    expect(validator.check('t', schema, { at: [1, 'x'] }).valid).toBe(false);
    const missing = thrownBy(() =>
      new SchemaValidator().compile('t', {
        type: 'object',
        properties: { at: { $ref: 'https://example.com/point.json' } },
      }),
    );
    expect((missing as ToolDefinitionError).message).toMatch(/can't resolve reference/);
  });

  it('refuses a resource that is not a schema, naming the option', () => {
    const validator = new SchemaValidator({ schemas: { 'https://example.com/x': { type: 7 } } });
    const error = thrownBy(() => validator.compile('t', { type: 'object' }));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe('schemas');
  });
});
