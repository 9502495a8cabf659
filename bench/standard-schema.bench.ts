/**
 * Which path should validate a Standard Schema tool's arguments: the library's own
 * `~standard.validate`, or ajv over the JSON Schema the library converted it to? Each case checks
 * one call's arguments through `SchemaValidator.check` (repair message included on failure), on
 * realistic zod and valibot schemas, valid and invalid arguments. The agreement of both paths is
 * tested in test/tools/standard-schema-agreement.test.ts.
 *
 * Run: npm run bench:one bench/standard-schema.bench.ts
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Bench } from 'tinybench';
import * as v from 'valibot';
import { z } from 'zod';
import {
  defineTool,
  type JsonSchema,
  SchemaValidator,
  type ToolSchema,
} from '../dist/tools/index.js';
import { printRatios } from './support/report.js';

const CHECKS = 1000;

interface Case {
  readonly name: string;
  readonly schema: ToolSchema;
  readonly valid: unknown;
  readonly invalid: unknown;
}

const CASES: readonly Case[] = [
  {
    name: 'zod weather (flat, enum, bounds)',
    schema: z.object({
      city: z.string().min(2),
      unit: z.enum(['c', 'f']),
      days: z.number().int().min(1).max(14).optional(),
    }),
    valid: { city: 'Paris', unit: 'c', days: 3 },
    invalid: { city: 'P', unit: 'k', days: 30 },
  },
  {
    name: 'zod order (nested, arrays, formats)',
    schema: z.object({
      customer: z.object({ id: z.uuid(), email: z.email() }),
      items: z
        .array(
          z.object({
            sku: z.string().regex(/^[A-Z]{3}-\d{4}$/),
            quantity: z.number().int().positive(),
          }),
        )
        .min(1)
        .max(50),
      note: z.string().max(500).optional(),
      express: z.boolean().default(false),
    }),
    valid: {
      customer: { id: '3f2c8e0a-5b1d-4c7e-9a2f-6d8b1e4c7a90', email: 'ada@example.com' },
      items: [
        { sku: 'ABC-1234', quantity: 2 },
        { sku: 'XYZ-0001', quantity: 1 },
        { sku: 'QRS-9876', quantity: 5 },
      ],
      note: 'leave at the door',
    },
    invalid: {
      customer: { id: 'not-a-uuid', email: 'ada' },
      items: [{ sku: 'abc', quantity: 0 }],
    },
  },
  {
    name: 'zod search (union, record, nullable)',
    schema: z.object({
      query: z.string().min(1),
      filter: z.union([
        z.object({ kind: z.literal('date'), after: z.string(), before: z.string().nullable() }),
        z.object({ kind: z.literal('tag'), tags: z.array(z.string()).max(10) }),
      ]),
      boosts: z.record(z.string(), z.number()).optional(),
      limit: z.number().int().min(1).max(100).default(10),
    }),
    valid: {
      query: 'receipts',
      filter: { kind: 'tag', tags: ['tax', '2026'] },
      boosts: { title: 2 },
    },
    invalid: { query: '', filter: { kind: 'tag', tags: 'tax' }, limit: 0 },
  },
  {
    name: 'valibot weather (flat, enum, bounds)',
    schema: toStandardJsonSchema(
      v.object({
        city: v.pipe(v.string(), v.minLength(2)),
        unit: v.picklist(['c', 'f']),
        days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14))),
      }),
    ),
    valid: { city: 'Paris', unit: 'c', days: 3 },
    invalid: { city: 'P', unit: 'k', days: 30 },
  },
];

const LIBRARY = 'library ~standard.validate';
const AJV = 'ajv over the converted JSON Schema';
let sink = 0;
const summary: { case: string; valid: string; invalid: string }[] = [];

for (const entry of CASES) {
  const validator = new SchemaValidator();
  const tool = defineTool(
    { name: 'bench', description: 'd', inputSchema: entry.schema, handler: () => null },
    validator,
  );
  // A copy is not bound to the Standard Schema: checking it runs ajv over the same JSON Schema.
  const converted: JsonSchema = structuredClone(tool.inputSchema);
  const bench = new Bench({ name: `${entry.name} (${CHECKS} checks per iteration; per check)` });
  for (const [label, args] of [
    ['valid', entry.valid],
    ['invalid', entry.invalid],
  ] as const) {
    bench
      .add(`${AJV}, ${label}`, () => {
        for (let index = 0; index < CHECKS; index += 1) {
          if (validator.check('bench', converted, args).valid) sink += 1;
        }
      })
      .add(`${LIBRARY}, ${label}`, () => {
        for (let index = 0; index < CHECKS; index += 1) {
          if (validator.check('bench', tool.inputSchema, args).valid) sink += 1;
        }
      });
  }
  await bench.run();
  const perItem = printRatios(bench, `${AJV}, valid`, CHECKS, 'ns');
  const ratio = (label: string) =>
    (
      (perItem.get(`${LIBRARY}, ${label}`) ?? Number.NaN) /
      (perItem.get(`${AJV}, ${label}`) ?? Number.NaN)
    ).toFixed(2);
  summary.push({ case: entry.name, valid: `${ratio('valid')}×`, invalid: `${ratio('invalid')}×` });
}

console.log('\nlibrary path / ajv path, per check (same run):');
console.table(summary);
if (sink < 0) console.log(sink);
