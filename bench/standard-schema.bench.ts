/**
 * Which path should validate a Standard Schema tool's arguments: the library's own
 * `~standard.validate`, or ajv over the JSON Schema the library converted it to? Each case checks
 * one call's arguments through `SchemaValidator.check` (repair message included on failure), on
 * realistic zod and valibot schemas, valid and invalid arguments. The agreement of both paths is
 * tested in test/tools/standard-schema-agreement.test.ts.
 *
 * Run: npm run bench:one bench/standard-schema.bench.ts
 */

import { defineTool, type JsonSchema, SchemaValidator } from 'switchyard/tools';
import { Bench } from 'tinybench';
import { STANDARD_SCHEMA_CASES } from '../test/tools/support/standard-schema-cases.js';
import { printRatios } from './support/report.js';

const CHECKS = 1000;

const LIBRARY = 'library ~standard.validate';
const AJV = 'ajv over the converted JSON Schema';
let sink = 0;
const summary: { case: string; valid: string; invalid: string }[] = [];

for (const entry of STANDARD_SCHEMA_CASES) {
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
