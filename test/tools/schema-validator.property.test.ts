import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/tools/json.js';
import { type SchemaResource, SchemaValidator } from '../../src/tools/schema-validator.js';
import {
  DIALECT_URI,
  type SuiteDraft,
  suiteFiles,
  suiteRemotes,
} from './support/json-schema-suite.js';

/** Every schema of the official suite that compiles, as a tool schema over one `value`. */
function suiteTools(draft: SuiteDraft) {
  const schemas: Record<string, SchemaResource> = { ...suiteRemotes(draft) };
  const tools: JsonSchema[] = [];
  for (const file of suiteFiles(draft)) {
    file.groups.forEach((group, index) => {
      const uri = `https://suite.invalid/${file.name}/${index}.json`;
      schemas[uri] = group.schema;
      tools.push({
        $schema: DIALECT_URI[draft],
        type: 'object',
        properties: { value: { $ref: uri } },
      });
    });
  }
  return { validator: new SchemaValidator({ schemas }), tools };
}

const deep = fc
  .record({ depth: fc.integer({ min: 1, max: 60_000 }), open: fc.constantFrom('[', '{"a":') })
  .map(({ depth, open }) => {
    const close = open === '[' ? ']' : '}';
    return JSON.parse(`${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`);
  });
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      JSON.parse('{"__proto__": {"x": 1}}'),
      { constructor: 1, toString: 'x' },
      '\uD800',
      -0,
    ),
  },
);

describe('SchemaValidator.check on any arguments', () => {
  it('returns a verdict, never a throw, for every suite schema and hostile values', () => {
    for (const draft of ['draft7', 'draft2020-12'] as const) {
      const { validator, tools } = suiteTools(draft);
      const compiled = tools.filter((schema, index) => {
        try {
          validator.compile(`t${index}`, schema);
          return true;
        } catch {
          return false; // what ajv refuses is listed in the suite's skip list
        }
      });
      expect(compiled.length).toBeGreaterThan(200);
      fc.assert(
        fc.property(fc.nat(compiled.length - 1), hostileValue, (index, value) => {
          const check = validator.check(`t${tools.indexOf(compiled[index]!)}`, compiled[index]!, {
            value,
          });
          expect(typeof check.valid).toBe('boolean');
          if (!check.valid) expect(check.repair).toMatch(/^Invalid arguments for tool/);
        }),
        { numRuns: 300 },
      );
    }
  });
});
