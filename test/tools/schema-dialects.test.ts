import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  ToolDefinitionError,
} from '../../src/index.js';
import { SchemaValidator } from '../../src/tools/index.js';

describe('SchemaValidator dialects', () => {
  it('routes 2020-12 schemas (and schemas without $schema) to the 2020 dialect', () => {
    const validator = new SchemaValidator();
    const tuple = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          items: false,
        },
      },
    };
    expect(validator.check('t', tuple, { point: [1, 2] }).valid).toBe(true);
    expect(validator.check('t', tuple, { point: [1, 2, 3] }).valid).toBe(false);
    const { $schema: _dropped, ...implicit } = tuple;
    expect(validator.check('u', implicit, { point: [1, 'x'] }).valid).toBe(false);
  });

  it('routes draft-07 schemas (what zod and MCP servers emit) to the draft-07 dialect', () => {
    const validator = new SchemaValidator();
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      definitions: { unused: { type: 'string' } },
    };
    expect(validator.check('t', schema, { pair: ['a', 1] }).valid).toBe(true);
    expect(validator.check('t', schema, { pair: [1, 'a'] }).valid).toBe(false);
  });

  it('refuses an unsupported $schema with a definition error', () => {
    const validator = new SchemaValidator();
    expect(() =>
      validator.compile('t', {
        $schema: 'http://json-schema.org/draft-03/schema#',
        type: 'object',
      }),
    ).toThrow(ToolDefinitionError);
  });

  it('tolerates vendor x-* keywords and unknown formats but not typos', () => {
    const validator = new SchemaValidator();
    const vendor = {
      type: 'object',
      'x-order': ['b', 'a'],
      properties: {
        a: { type: 'string', 'x-display': 'A', format: 'my-custom-format' },
        b: { type: 'string', format: 'date' },
      },
    };
    expect(validator.check('t', vendor, { a: 'anything', b: '2026-11-22' }).valid).toBe(true);
    expect(validator.check('t', vendor, { a: 'anything', b: 'not a date' }).valid).toBe(false);
    expect(() => validator.compile('t', { type: 'object', propertys: {} })).toThrow(/propertys/);
  });

  it('compiles each schema once: repeated calls and structurally equal clones hit the cache', async () => {
    const validator = new SchemaValidator();
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const tool = defineTool(
      {
        name: 'count',
        description: 'd',
        inputSchema: schema,
        safety: { readOnly: true },
        handler: () => 1,
      },
      validator,
    );
    const compiledAtDefinition = validator.compileCount;
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool], { validator }) });
    for (let index = 0; index < 200; index += 1) {
      await dispatcher.dispatch({ id: `c${index}`, name: 'count', arguments: { n: index } });
    }
    validator.check('count', structuredClone(schema), { n: 1 });
    expect(validator.compileCount).toBe(compiledAtDefinition);
  });

  it('keeps two tools that reuse one $id apart', () => {
    const validator = new SchemaValidator();
    const first = {
      $id: 'https://example.com/schemas/shared.json',
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    };
    const second = {
      $id: 'https://example.com/schemas/shared.json',
      type: 'object',
      properties: { b: { type: 'number' } },
      required: ['b'],
    };
    expect(validator.check('one', first, { a: 'x' }).valid).toBe(true);
    expect(validator.check('two', second, { b: 1 }).valid).toBe(true);
    expect(validator.check('two', second, { a: 'x' }).valid).toBe(false);
  });

  it('resolves each tool’s reference to its own $id, when two tools reuse one $id', () => {
    const validator = new SchemaValidator();
    const id = 'https://example.com/schemas/node.json';
    const named = {
      $id: id,
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, next: { $ref: id } },
    };
    const counted = {
      $id: id,
      type: 'object',
      required: ['count'],
      properties: { count: { type: 'integer' }, next: { $ref: id } },
    };
    expect(validator.check('named', named, { name: 'a', next: { name: 'b' } }).valid).toBe(true);
    expect(validator.check('counted', counted, { count: 1, next: { count: 2 } }).valid).toBe(true);
    expect(validator.check('counted', counted, { count: 1, next: { name: 'b' } }).valid).toBe(
      false,
    );
    expect(validator.check('named', named, { name: 'a', next: { count: 2 } }).valid).toBe(false);
  });
});

describe('repair messages', () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      unit: { type: 'string', enum: ['c', 'f'] },
      when: { type: 'string', format: 'date' },
      stops: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, 'odd key': { type: 'integer' } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
    required: ['city', 'unit'],
    additionalProperties: false,
  };

  function repair(args: unknown) {
    const check = new SchemaValidator().check('plan_trip', schema, args);
    if (check.valid) throw new Error('expected a violation');
    return check;
  }

  it('names the missing key with its expected type and allowed values', () => {
    const check = repair({ city: 'Paris' });
    expect(check.issues).toContainEqual(
      expect.objectContaining({
        path: 'unit',
        keyword: 'required',
        expected: 'string',
        allowed: ['c', 'f'],
      }),
    );
    expect(check.repair).toContain(
      '- unit: missing required property (expected string); allowed values: "c", "f"',
    );
  });

  it('names wrong types, enum values, formats and unexpected keys, nested paths included', () => {
    const check = repair({
      city: 7,
      unit: 'kelvin',
      when: 'soon',
      extra: true,
      stops: [{ name: 'A' }, { 'odd key': 1.5 }],
    });
    const lines = check.repair.split('\n');
    expect(lines[0]).toBe('Invalid arguments for tool "plan_trip":');
    expect(check.repair).toContain('- city: must be string; got integer 7');
    expect(check.repair).toContain('- unit: must be one of "c", "f"; got "kelvin"');
    expect(check.repair).toContain('- when: must be a string in format "date"; got "soon"');
    expect(check.repair).toContain(
      '- extra: unexpected property; allowed properties here: city, unit, when, stops',
    );
    expect(check.repair).toContain('- stops[1].name: missing required property (expected string)');
    expect(check.repair).toContain('- stops[1]["odd key"]: must be integer; got number 1.5');
    expect(lines.at(-1)).toBe('Call plan_trip again with arguments that satisfy its input schema.');
    expect(check.repair).not.toMatch(/must NOT have additional properties/);
  });

  it('reports the arguments object itself as (arguments)', () => {
    const check = new SchemaValidator().check('t', { type: 'object', minProperties: 1 }, {});
    expect(check.valid).toBe(false);
    if (!check.valid) expect(check.issues[0]?.path).toBe('(arguments)');
  });
});
