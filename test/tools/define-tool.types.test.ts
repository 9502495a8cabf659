// Type tests: `npm run typecheck` checks every line here; a `@ts-expect-error` that stops erring
// fails it. The runtime assertions only keep vitest from reporting an empty file.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonObject } from '../../src/tools/json.js';
import type { Tool } from '../../src/tools/tool-spec.js';

type ArgsOf<T> = T extends Tool<infer Args, unknown, unknown> ? Args : never;

describe('defineTool types', () => {
  it("infers a zod schema's output type, defaults and transforms applied", () => {
    const tool = defineTool({
      name: 'order',
      description: 'd',
      inputSchema: z.object({
        sku: z.string(),
        quantity: z.number().default(1),
        code: z.string().transform((text) => text.length),
      }),
      handler: (args) => args.quantity + args.code,
    });
    expectTypeOf<ArgsOf<typeof tool>>().toEqualTypeOf<{
      sku: string;
      quantity: number;
      code: number;
    }>();
    expectTypeOf(tool.handler).returns.resolves.toEqualTypeOf<number>();
    expect(tool.name).toBe('order');
  });

  it('infers a valibot schema through the Standard Schema types', () => {
    const tool = defineTool({
      name: 'weather',
      description: 'd',
      inputSchema: toStandardJsonSchema(
        v.object({ city: v.string(), days: v.optional(v.number()) }),
      ),
      handler: ({ city }) => city.toUpperCase(),
    });
    expectTypeOf<ArgsOf<typeof tool>>().toEqualTypeOf<{
      city: string;
      days?: number | undefined;
    }>();
  });

  it('infers a JSON Schema written as const through json-schema-to-ts', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' }, tag: { type: 'string', enum: ['x', 'y'] } },
      required: ['a'],
      additionalProperties: false,
    } as const;
    const tool = defineTool({
      name: 'add',
      description: 'd',
      inputSchema: schema,
      handler: ({ a, tag }) => (tag === 'x' ? a : -a),
    });
    expectTypeOf<ArgsOf<typeof tool>>().toEqualTypeOf<{ a: number; tag?: 'x' | 'y' }>();
  });

  it('keeps JsonObject for a JSON Schema whose literals are widened', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const tool = defineTool({
      name: 'any',
      description: 'd',
      inputSchema: schema,
      handler: () => 1,
    });
    expectTypeOf<ArgsOf<typeof tool>>().toEqualTypeOf<JsonObject>();
  });

  it('accepts explicit argument types that agree with the schema', () => {
    const tool = defineTool<{ a: number; note?: string }, number>({
      name: 'add',
      description: 'd',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer', minimum: 0 }, note: { type: 'string' } },
      },
      handler: ({ a }) => a,
    });
    expectTypeOf<ArgsOf<typeof tool>>().toEqualTypeOf<{ a: number; note?: string }>();
    defineTool<{ a: number }, number>({
      name: 'add',
      description: 'd',
      inputSchema: z.object({ a: z.number() }),
      handler: ({ a }) => a,
    });
  });

  it('rejects explicit argument types that contradict the schema', () => {
    // @ts-expect-error the schema says a string, the handler a number (inline literal)
    defineTool<{ a: number }, number>({
      name: 'add',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
      handler: ({ a }) => a,
    });
    const strings = { type: 'object', properties: { a: { type: 'string' } } } as const;
    // @ts-expect-error the same contradiction, with the schema written as const
    defineTool<{ a: number }, number>({
      name: 'add',
      description: 'd',
      inputSchema: strings,
      handler: ({ a }) => a,
    });
    // @ts-expect-error a zod schema whose output contradicts the declared arguments
    defineTool<{ a: number }, number>({
      name: 'add',
      description: 'd',
      inputSchema: z.object({ a: z.string() }),
      handler: ({ a }) => a,
    });
  });

  it('checks the handler against the inferred arguments', () => {
    defineTool({
      name: 'add',
      description: 'd',
      inputSchema: z.object({ a: z.number() }),
      // @ts-expect-error `b` is not an argument of this schema
      handler: ({ b }) => b,
    });
    defineTool({
      name: 'add',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'number' } } } as const,
      // @ts-expect-error `a` is a number: it has no toUpperCase
      handler: ({ a }) => a?.toUpperCase(),
    });
  });
});
