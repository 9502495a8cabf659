import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { toOpenAIStrictSchema } from '../src/index.js';

const search = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', default: 10, maximum: 50 },
    unit: { type: 'string', enum: ['c', 'f'] },
    filters: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, value: { type: 'string' } },
        required: ['field'],
      },
    },
  },
  required: ['query'],
} as const;

function converted(schema: Record<string, unknown>) {
  const conversion = toOpenAIStrictSchema(schema);
  if (!conversion.strict) throw new Error(`not strict: ${conversion.reasons.join('; ')}`);
  return conversion;
}

describe('toOpenAIStrictSchema', () => {
  it('requires every property, closes every object and makes the optional ones nullable', () => {
    expect(converted(search).schema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'At least 1 characters.' },
        limit: { type: ['integer', 'null'], maximum: 50, description: 'Default: 10.' },
        unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
        filters: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, value: { type: ['string', 'null'] } },
            required: ['field', 'value'],
            additionalProperties: false,
          },
        },
      },
      required: ['query', 'limit', 'unit', 'filters'],
      additionalProperties: false,
    });
  });

  it('leaves the original schema untouched', () => {
    const before = JSON.stringify(search);
    converted(search);
    expect(JSON.stringify(search)).toBe(before);
  });

  it('restores the nulls it introduced as absent fields, at any depth, and nothing else', () => {
    const { restore } = converted(search);
    const written = {
      query: 'x',
      limit: null,
      unit: 'c',
      filters: [
        { field: 'a', value: null },
        { field: 'b', value: 'v' },
      ],
    };
    expect(restore(written)).toEqual({
      query: 'x',
      unit: 'c',
      filters: [{ field: 'a' }, { field: 'b', value: 'v' }],
    });
    expect(written.limit).toBeNull();
    const untouched = { query: 'y', limit: 3, unit: 'f', filters: null };
    expect(restore({ ...untouched, filters: [] })).toEqual({ ...untouched, filters: [] });
  });

  it('keeps a null the original schema allows on a required field', () => {
    const { restore, schema } = converted({
      type: 'object',
      properties: { note: { type: ['string', 'null'] } },
      required: ['note'],
    });
    expect(schema.properties).toEqual({ note: { type: ['string', 'null'] } });
    expect(restore({ note: null })).toEqual({ note: null });
  });

  it('picks the anyOf branch whose properties the value carries when restoring', () => {
    const { restore } = converted({
      type: 'object',
      properties: {
        target: {
          anyOf: [
            {
              type: 'object',
              properties: { path: { type: 'string' }, line: { type: 'integer' } },
              required: ['path'],
            },
            {
              type: 'object',
              properties: { url: { type: 'string' }, depth: { type: 'integer' } },
              required: ['url'],
            },
          ],
        },
      },
      required: ['target'],
    });
    expect(restore({ target: { url: 'u', depth: null } })).toEqual({ target: { url: 'u' } });
    expect(restore({ target: { path: 'p', line: null } })).toEqual({ target: { path: 'p' } });
  });

  it('takes a root with no properties as a tool without arguments', () => {
    expect(converted({ type: 'object', properties: {} }).schema).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  it.each([
    [{ type: 'array', items: { type: 'string' } }, 'the root is not a plain object schema'],
    [
      { type: 'object', properties: { meta: { type: 'object' } } },
      '/meta is a free-form object (no properties)',
    ],
    [
      { type: 'object', properties: { meta: { type: 'object', properties: {} } } },
      '/meta is a free-form object (no properties)',
    ],
    [
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      'the root allows properties it does not describe (additionalProperties)',
    ],
    [
      { type: 'object', properties: { a: { type: ['string', 'null'] } } },
      '/a is optional and accepts null: null cannot stand for absent',
    ],
    [
      { type: 'object', properties: { a: { allOf: [{ type: 'string' }] } }, required: ['a'] },
      '/a uses allOf, which strict mode lacks',
    ],
    [
      { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, required: ['a'] },
      '/a uses $ref, which strict mode lacks',
    ],
    [
      { type: 'object', properties: { a: { description: 'anything' } }, required: ['a'] },
      '/a accepts any value (no type)',
    ],
    [
      { type: 'object', properties: { a: { type: 'array' } }, required: ['a'] },
      '/a is an array of unspecified or tuple items',
    ],
    [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
      'the root requires b, which it does not describe',
    ],
  ])('says why %j cannot be strict', (schema, reason) => {
    expect(toOpenAIStrictSchema(schema)).toEqual({ strict: false, reasons: [reason] });
  });

  it('refuses a schema past the 1000 enum values OpenAI allows', () => {
    const values = Array.from({ length: 1001 }, (_, index) => `v${index}`);
    const conversion = toOpenAIStrictSchema({
      type: 'object',
      properties: { a: { type: 'string', enum: values } },
      required: ['a'],
    });
    expect(conversion).toEqual({ strict: false, reasons: ['more than 1000 enum values in all'] });
  });

  it('produces schemas that compile, and whose valid values restore to valid original values', () => {
    const ajv = new Ajv2020({ strict: false });
    const { schema, restore } = converted(search);
    const strictCheck = ajv.compile(schema);
    const originalCheck = ajv.compile(search);
    const written = { query: 'q', limit: null, unit: null, filters: [{ field: 'f', value: null }] };
    expect(strictCheck(written)).toBe(true);
    expect(originalCheck(written)).toBe(false);
    expect(originalCheck(restore(written))).toBe(true);
  });
});
