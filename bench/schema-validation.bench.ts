/**
 * What checking one call's arguments costs in `SchemaValidator.check` (cached compiled validator,
 * own-property checks, the guard that turns a throwing validator into a result) against ajv's own
 * compiled function for the same schema with ajv's defaults (inherited properties count).
 * Target: ≤ 1.3× the bare ajv function on valid arguments (a schema naming no inherited property
 * never pays for own-property checks).
 *
 * Run: npm run bench:one bench/schema-validation.bench.ts
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SchemaValidator } from 'switchyard/tools';
import { Bench } from 'tinybench';
import { printRatios } from './support/report.js';

const CHECKS = 1000;

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    stops: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, hours: { type: 'number' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const valid = { city: 'Paris', unit: 'c', days: 3, stops: [{ name: 'Louvre', hours: 2 }] };

const bare = new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile(schema);
const ownOnly = new Ajv2020({
  allErrors: true,
  verbose: true,
  strict: false,
  ownProperties: true,
}).compile(schema);
const validator = new SchemaValidator();
validator.compile('plan_trip', schema);

let sink = 0;
const bench = new Bench({ name: `schema validation (${CHECKS} checks per iteration; per check)` });
bench
  .add('ajv compiled function, ajv defaults (baseline)', () => {
    for (let index = 0; index < CHECKS; index += 1) if (bare(valid)) sink += 1;
  })
  .add('ajv compiled function, ownProperties', () => {
    for (let index = 0; index < CHECKS; index += 1) if (ownOnly(valid)) sink += 1;
  })
  .add('SchemaValidator.check (valid arguments)', () => {
    for (let index = 0; index < CHECKS; index += 1) {
      if (validator.check('plan_trip', schema, valid).valid) sink += 1;
    }
  });

await bench.run();
const perItem = printRatios(bench, 'ajv compiled function, ajv defaults (baseline)', CHECKS, 'ns');
const ratio =
  (perItem.get('SchemaValidator.check (valid arguments)') ?? Number.NaN) /
  (perItem.get('ajv compiled function, ajv defaults (baseline)') ?? Number.NaN);
console.log(
  `check is ${ratio.toFixed(2)}× the bare ajv function; target ≤ 1.3×: ${ratio <= 1.3 ? 'MET' : 'MISSED'}`,
);
if (sink < 0) console.log(sink);
