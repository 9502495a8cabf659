// Do the two possible validation paths of a Standard Schema tool agree: the library's own
// `~standard.validate` (the path taken) and ajv over the JSON Schema the library converted it to?
// On what JSON Schema can say, they must; where they part, the library is the one the handler's
// types and value come from. Speed of both: bench/standard-schema.bench.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import type { ToolSchema } from '../../src/tools/tool-spec.js';
import { STANDARD_SCHEMA_CASES, type StandardSchemaCase } from './support/standard-schema-cases.js';

function bothPaths(schema: ToolSchema) {
  const validator = new SchemaValidator();
  const tool = defineTool(
    { name: 'probe', description: 'd', inputSchema: schema, handler: () => null },
    validator,
  );
  const unbound = structuredClone(tool.inputSchema); // a copy is checked by ajv
  return (args: unknown) => ({
    library: validator.check('probe', tool.inputSchema, args).valid,
    ajv: validator.check('probe', unbound, args).valid,
  });
}

/** Any JSON value, sometimes of the expected kind: both verdicts get exercised. */
const anyJson = fc.oneof(
  fc.string(),
  fc.integer({ min: -20, max: 20 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
);
const json = <T>(arbitrary: fc.Arbitrary<T>) =>
  arbitrary.map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/** Mostly `valid`, sometimes any JSON value: deep schemas still accept a good share. */
const usually = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyJson, weight: 1 });
/** Mostly a value from `valid`, sometimes one from `invalid`. */
const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: invalid, weight: 1 });

const weatherArgs = json(
  fc.record(
    {
      city: fc.oneof(fc.string({ maxLength: 24 }), anyJson),
      unit: fc.oneof(fc.constantFrom('c', 'f', 'k'), anyJson),
      days: fc.oneof(
        fc.integer({ min: -2, max: 16 }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        anyJson,
      ),
      extra: anyJson,
    },
    { requiredKeys: [] },
  ),
);

const item = fc.record(
  {
    sku: usually(
      mostly(fc.stringMatching(/^[A-Z]{3}-\d{4}$/), fc.constantFrom('abc-1234', 'ABC-12')),
    ),
    quantity: usually(mostly(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -1, max: 0 }))),
  },
  { requiredKeys: ['sku', 'quantity'] },
);
const orderArgs = json(
  fc.record(
    {
      customer: usually(
        fc.record({
          id: mostly(
            fc.oneof(fc.uuid({ version: 4 }), fc.constant('3f2c8e0a-5b1d-4c7e-9a2f-6d8b1e4c7a90')),
            fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', '')),
          ),
          email: mostly(
            fc.constantFrom('ada@example.com', 'a.b+c@mail.example.org'),
            fc.constantFrom('ada', 'ada@', '@x.io'),
          ),
        }),
      ),
      items: usually(
        mostly(fc.array(item, { minLength: 1, maxLength: 3 }), fc.array(item, { maxLength: 0 })),
      ),
      note: usually(fc.string({ maxLength: 8 })),
      express: usually(fc.boolean()),
    },
    { requiredKeys: ['customer', 'items'] },
  ),
);

const searchArgs = json(
  fc.record(
    {
      query: usually(fc.string({ maxLength: 3 })),
      filter: usually(
        fc.oneof(
          fc.record(
            {
              kind: fc.constantFrom('date', 'tag'),
              after: usually(fc.string()),
              before: usually(fc.oneof(fc.string(), fc.constant(null))),
            },
            { requiredKeys: ['kind'] },
          ),
          fc.record({
            kind: fc.constantFrom('tag', 'date'),
            tags: usually(fc.array(fc.string(), { maxLength: 12 })),
          }),
        ),
      ),
      boosts: usually(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string())),
      ),
      limit: usually(fc.integer({ min: 0, max: 101 })),
    },
    { requiredKeys: ['query', 'filter'] },
  ),
);

const GENERATORS: Record<StandardSchemaCase['shape'], fc.Arbitrary<unknown>> = {
  weather: weatherArgs,
  order: orderArgs,
  search: searchArgs,
};

describe('the library and ajv over its JSON Schema', () => {
  for (const { name, shape, schema, valid, invalid } of STANDARD_SCHEMA_CASES) {
    it(`agree on every generated argument object: ${name}`, () => {
      const check = bothPaths(schema);
      expect(check(valid)).toEqual({ library: true, ajv: true });
      expect(check(invalid)).toEqual({ library: false, ajv: false });
      const args = GENERATORS[shape];
      let accepted = 0;
      fc.assert(
        fc.property(args, (value) => {
          const verdict = check(value);
          if (verdict.library) accepted += 1;
          expect(verdict.ajv).toBe(verdict.library);
        }),
        { numRuns: 400 },
      );
      // The corpus reaches both verdicts.
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(400);
    });
  }

  it('part where JSON Schema cannot say what the library checks; the library decides', () => {
    const refined = bothPaths(
      z.object({ from: z.number(), to: z.number() }).refine((range) => range.from <= range.to),
    );
    expect(refined({ from: 2, to: 1 })).toEqual({ library: false, ajv: true });
    const custom = bothPaths(
      z.object({ when: z.string().refine((text) => !Number.isNaN(Date.parse(text))) }),
    );
    expect(custom({ when: 'not a date' })).toEqual({ library: false, ajv: true });
  });
});
