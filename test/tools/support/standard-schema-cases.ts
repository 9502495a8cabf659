// Realistic Standard Schemas, shared by the validation-path benchmark
// (bench/standard-schema.bench.ts) and the agreement test of both paths, so the schemas that were
// timed are the ones checked for agreement.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';

/** A schema with one valid and one invalid argument object. */
export interface StandardSchemaCase {
  readonly name: string;
  /** Which argument generator of the agreement test fits this schema. */
  readonly shape: 'weather' | 'order' | 'search';
  readonly schema: StandardSchemaV1;
  readonly valid: unknown;
  readonly invalid: unknown;
}

export const STANDARD_SCHEMA_CASES: readonly StandardSchemaCase[] = [
  {
    name: 'zod weather (flat, enum, bounds)',
    shape: 'weather',
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
    shape: 'order',
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
    shape: 'search',
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
    shape: 'weather',
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
