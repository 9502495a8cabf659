import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { ToolDefinitionError } from '../../src/errors.js';
import { toolInjectParam } from '../../src/middleware/tool-inject-param.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import { isStandardSchema } from '../../src/tools/standard-schema.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { thrownBy } from '../support/thrown-by.js';

const ORDER = z.object({
  sku: z.string().min(3),
  quantity: z.number().int().positive().default(1),
  items: z.array(z.object({ name: z.string() })).optional(),
});

function orderTool(handler: (args: z.output<typeof ORDER>) => unknown = (args) => args) {
  return defineTool({
    name: 'place_order',
    description: 'Place an order',
    inputSchema: ORDER,
    handler,
  });
}

function definitionError(run: () => unknown): ToolDefinitionError {
  const error = thrownBy(run);
  expect(error).toBeInstanceOf(ToolDefinitionError);
  return error as ToolDefinitionError;
}

describe('defineTool with a Standard Schema', () => {
  it('recognises Standard Schemas and never a JSON Schema', () => {
    expect(isStandardSchema(ORDER)).toBe(true);
    expect(isStandardSchema(v.object({}))).toBe(true);
    expect(isStandardSchema({ type: 'object', '~standard': 'x' })).toBe(false);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
  });

  it("shows the model zod's own input JSON Schema, without the default dialect's $schema", () => {
    const tool = orderTool();
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        sku: { type: 'string', minLength: 3 },
        quantity: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991, default: 1 },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
          },
        },
      },
      required: ['sku'],
    });
    expect(tool.handlerSchema).toBe(tool.inputSchema);
    expect(createToolRegistry([tool]).modelDefinitions()[0]?.inputSchema).toBe(tool.inputSchema);
  });

  it('converts an output Standard Schema with its output side', () => {
    const tool = defineTool({
      name: 'count',
      description: 'Count',
      inputSchema: z.object({}),
      outputSchema: z.object({ count: z.number().default(0) }),
      handler: () => ({ count: 1 }),
    });
    expect(tool.outputSchema).toMatchObject({
      type: 'object',
      required: ['count'],
      additionalProperties: false,
    });
  });

  it('refuses a Standard Schema whose JSON Schema is not an object schema', () => {
    const error = definitionError(() =>
      defineTool({ name: 'echo', description: 'd', inputSchema: z.string(), handler: String }),
    );
    expect(error.rule).toBe('schema_type');
  });

  it('refuses, with the fix, a type the library cannot convert', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'when',
        description: 'd',
        inputSchema: z.object({ at: z.date() }),
        handler: () => null,
      }),
    );
    expect(error.rule).toBe('schema_conversion');
    expect(error.message).toContain('`jsonSchema`');
  });

  it('refuses a library without a JSON Schema conversion unless jsonSchema is given', () => {
    const schema = v.object({ city: v.string() });
    const error = definitionError(() =>
      defineTool({ name: 'weather', description: 'd', inputSchema: schema, handler: () => null }),
    );
    expect(error.rule).toBe('schema_conversion');
    expect(error.message).toContain('valibot');
    const jsonSchema = { type: 'object', properties: { city: { type: 'string' } } };
    const tool = defineTool({
      name: 'weather',
      description: 'd',
      inputSchema: schema,
      jsonSchema,
      handler: () => null,
    });
    expect(tool.inputSchema).toEqual(jsonSchema);
    expect(tool).not.toHaveProperty('jsonSchema');
  });

  it('uses the Standard JSON Schema interface of any library (valibot)', () => {
    const tool = defineTool({
      name: 'weather',
      description: 'd',
      inputSchema: toStandardJsonSchema(v.object({ city: v.string() })),
      handler: () => null,
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('applies the registry rules to converted and overriding schemas alike', () => {
    const typo = definitionError(() =>
      defineTool({
        name: 'weather',
        description: 'd',
        inputSchema: ORDER,
        jsonSchema: { type: 'object', requried: ['sku'] },
        handler: () => null,
      }),
    );
    expect(typo.rule).toBe('schema_invalid');
    const injected = definitionError(() =>
      defineTool({
        name: 'weather',
        description: 'd',
        inputSchema: z.object({ context: z.string() }),
        injected: ['context'],
        handler: () => null,
      }),
    );
    expect(injected.rule).toBe('injected_in_schema');
  });

  it('refuses jsonSchema beside a plain JSON Schema inputSchema', () => {
    const error = definitionError(() =>
      defineTool({
        name: 'weather',
        description: 'd',
        inputSchema: { type: 'object' },
        jsonSchema: { type: 'object' },
        handler: () => null,
      }),
    );
    expect(error.rule).toBe('json_schema_override');
  });
});

describe('validating Standard Schema tools', () => {
  it('checks with the library wherever the converted schema is checked', () => {
    const validator = new SchemaValidator();
    const tool = defineTool(
      {
        name: 'pick',
        description: 'd',
        // JSON Schema cannot say this: only the library's own check catches it.
        inputSchema: z.object({ a: z.number(), b: z.number() }).refine((x) => x.a < x.b, {
          message: 'a must be below b',
          path: ['a'],
        }),
        handler: () => null,
      },
      validator,
    );
    expect(validator.check('pick', tool.inputSchema, { a: 1, b: 2 })).toEqual({ valid: true });
    const check = validator.check('pick', tool.inputSchema, { a: 3, b: 2 });
    expect(check).toMatchObject({ valid: false, issues: [{ path: 'a', keyword: 'custom' }] });
  });

  it('refuses invalid arguments with schema_violation and a repair message with paths', async () => {
    let runs = 0;
    const registry = createToolRegistry([
      orderTool(() => {
        runs += 1;
      }),
    ]);
    const dispatcher = createDispatcher({ registry });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'place_order',
      arguments: { sku: 'ab', items: [{ name: 7 }] },
    });
    expect(result).toMatchObject({ ok: false, status: 'schema_violation', toolCallId: 'c1' });
    expect(result.error).toMatch(/^Invalid arguments for tool "place_order":\n- sku: /);
    expect(result.error).toContain('\n- items[0].name: ');
    expect(result.error).toMatch(
      /\nCall place_order again with arguments that satisfy its input schema\.$/,
    );
    expect(runs).toBe(0);
  });

  it("hands the handler the library's output value; the result keeps the model's arguments", async () => {
    const schema = z.object({
      word: z.string().transform((word) => word.toUpperCase()),
      times: z.number().default(2),
    });
    const tool = defineTool({
      name: 'shout',
      description: 'd',
      inputSchema: schema,
      handler: ({ word, times }) => word.repeat(times),
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
    const result = await dispatcher.dispatch({ id: 'c', name: 'shout', arguments: { word: 'hi' } });
    expect(result).toMatchObject({ ok: true, result: 'HIHI', arguments: { word: 'hi' } });
  });

  it('fails closed on a schema that validates asynchronously', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'lookup',
      description: 'd',
      inputSchema: z.object({ id: z.string() }).refine(async () => true),
      handler: () => {
        runs += 1;
      },
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
    const result = await dispatcher.dispatch({ id: 'c', name: 'lookup', arguments: { id: 'x' } });
    expect(result).toMatchObject({ ok: false, status: 'schema_violation' });
    expect(result.error).toContain('validates asynchronously');
    expect(runs).toBe(0);
  });

  it('keeps library validation and parsing on a tool derived by schema-time middleware', async () => {
    const tool = orderTool((args) => args.quantity);
    const derived = defineTool(toolInjectParam(tool, 'reason', { type: 'string' }));
    expect(derived.inputSchema.required).toEqual(['sku', 'reason']);
    const dispatcher = createDispatcher({ registry: createToolRegistry([derived]) });
    const refused = await dispatcher.dispatch({
      id: 'a',
      name: 'place_order',
      arguments: { sku: 'x', reason: 'r' },
    });
    expect(refused).toMatchObject({ ok: false, status: 'schema_violation' });
    const ran = await dispatcher.dispatch({
      id: 'b',
      name: 'place_order',
      arguments: { sku: 'xyz', reason: 'r' },
    });
    expect(ran).toMatchObject({ ok: true, result: 1 });
  });

  it('injects a parameter into a Standard Schema spec not yet defined', () => {
    const spec = { name: 'place_order', description: 'd', inputSchema: ORDER, handler: () => 1 };
    const derived = defineTool(toolInjectParam(spec, 'reason', { type: 'string' }));
    expect(Object.keys(derived.inputSchema.properties as object)).toContain('reason');
    expect(
      new SchemaValidator().check('place_order', derived.handlerSchema, { sku: 'x' }),
    ).toMatchObject({
      valid: false,
    });
  });
});

/** A hand-written Standard Schema with the Standard JSON Schema interface, counting its checks. */
function countingSchema() {
  const counter = { validations: 0 };
  const schema = {
    '~standard': {
      version: 1 as const,
      vendor: 'hand-written',
      validate(value: unknown) {
        counter.validations += 1;
        const n = (value as { n?: unknown }).n;
        return typeof n === 'number'
          ? { value: { n: n * 2 } }
          : { issues: [{ message: 'n must be a number', path: [{ key: 'n' }] }] };
      },
      jsonSchema: {
        input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        output: () => ({ type: 'object' }),
      },
      types: undefined as unknown as { input: { n: number }; output: { n: number } },
    },
  };
  return { counter, schema };
}

describe('a Standard Schema from any library', () => {
  it('validates each call once and hands the checked value to the handler', async () => {
    const { counter, schema } = countingSchema();
    const tool = defineTool({
      name: 'double',
      description: 'd',
      inputSchema: schema,
      handler: ({ n }) => n,
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
    const ran = await dispatcher.dispatch({ id: 'a', name: 'double', arguments: '{"n":2}' });
    expect(ran).toMatchObject({ ok: true, result: 4, arguments: { n: 2 } });
    expect(counter.validations).toBe(1);
    const refused = await dispatcher.dispatch({ id: 'b', name: 'double', arguments: { n: 'x' } });
    expect(refused.error).toBe(
      'Invalid arguments for tool "double":\n- n: n must be a number\nCall double again with arguments that satisfy its input schema.',
    );
  });
});

describe('zod 4 before the Standard JSON Schema interface', () => {
  it("converts with the schema's own toJSONSchema, found by shape", () => {
    const sides: unknown[] = [];
    const legacy = {
      '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) },
      toJSONSchema(params: { target: string; io: string }) {
        sides.push(params);
        return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' };
      },
    };
    const tool = defineTool({
      name: 'legacy',
      description: 'd',
      inputSchema: legacy,
      outputSchema: legacy,
      handler: () => ({}),
    });
    expect(tool.inputSchema).toEqual({ type: 'object' });
    expect(sides).toEqual([
      { target: 'draft-2020-12', io: 'input' },
      { target: 'draft-2020-12', io: 'output' },
    ]);
  });

  it('refuses a conversion that is not an object', () => {
    const odd = {
      '~standard': {
        version: 1,
        vendor: 'odd',
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => 'object', output: () => 'object' },
      },
    };
    const error = definitionError(() =>
      defineTool({ name: 'odd', description: 'd', inputSchema: odd, handler: () => null }),
    );
    expect(error.rule).toBe('schema_conversion');
  });
});

describe('issues of other libraries', () => {
  it("names valibot's rule as the issue keyword, at the issue's path", () => {
    const validator = new SchemaValidator();
    const tool = defineTool(
      {
        name: 'weather',
        description: 'd',
        inputSchema: toStandardJsonSchema(
          v.object({ stops: v.array(v.object({ city: v.pipe(v.string(), v.minLength(2)) })) }),
        ),
        handler: () => null,
      },
      validator,
    );
    const check = validator.check('weather', tool.inputSchema, { stops: [{ city: 'P' }] });
    expect(check).toMatchObject({
      valid: false,
      issues: [{ path: 'stops[0].city', keyword: 'min_length' }],
    });
  });
});
