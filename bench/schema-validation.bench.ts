/**
 * What checking one call's arguments costs in `SchemaValidator.check` (cached compiled validator,
 * own-property checks, the guard that turns a throwing validator into a result) against ajv's own
 * compiled function for the same schema with ajv's defaults (inherited properties count).
 * Target: ≤ 1.3× the bare ajv function on valid arguments (a schema naming no inherited property
 * never pays for own-property checks).
 *
 * Then `pattern`, which Switchyard runs on a linear-time engine and ajv by default on the
 * backtracking RegExp (the old behaviour): an ordinary pattern per check; a hostile pattern from a
 * server's listing against arguments of growing length (the backtracking rows stop at 24
 * characters: each character doubles their time); and the worst the linear engine allows, the
 * largest pattern within `MAX_PATTERN_SIZE` that defeats its automaton cache, against one
 * `maxArgumentChars` (1 MiB) of text. `TIME_MS` sets each row's time budget (default 1000).
 *
 * Run: npm run bench:one bench/schema-validation.bench.ts
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SchemaValidator } from 'switchyard/tools';
import { Bench } from 'tinybench';
import { meanMs, printRatios } from './support/report.js';

const TIME_MS = Number(process.env.TIME_MS ?? 1000);

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
const bench = new Bench({
  name: `schema validation (${CHECKS} checks per iteration; per check)`,
  time: TIME_MS,
});
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

/** ajv as it was: its default engine, the backtracking RegExp. */
function backtracking(patternSchema: object) {
  return new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile(patternSchema);
}

const ORDINARY = {
  type: 'object',
  properties: {
    handle: { type: 'string', pattern: '^[a-z0-9_-]{3,32}$' },
    day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
};
const ordinaryArgs = { handle: 'ada_lovelace', day: '2026-11-30' };
const ordinaryOld = backtracking(ORDINARY);
validator.compile('ordinary', ORDINARY);
const ordinary = new Bench({
  name: `an ordinary pattern (${CHECKS} checks per iteration; per check)`,
  time: TIME_MS,
});
ordinary
  .add('backtracking RegExp (ajv default, before)', () => {
    for (let index = 0; index < CHECKS; index += 1) if (ordinaryOld(ordinaryArgs)) sink += 1;
  })
  .add('linear-time engine (SchemaValidator.check)', () => {
    for (let index = 0; index < CHECKS; index += 1) {
      if (validator.check('ordinary', ORDINARY, ordinaryArgs).valid) sink += 1;
    }
  });
await ordinary.run();
printRatios(ordinary, 'backtracking RegExp (ajv default, before)', CHECKS, 'ns');

const HOSTILE = { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } };
const hostileOld = backtracking(HOSTILE);
validator.compile('hostile', HOSTILE);
const hostileArgs = (length: number) => ({ id: `${'a'.repeat(length)}!` });
const hostile = new Bench({
  name: 'the hostile pattern ^(a+)+$ against "aaa…a!" (per check)',
  time: TIME_MS,
  iterations: 4,
});
for (const length of [16, 20, 24]) {
  const args = hostileArgs(length);
  hostile.add(`backtracking RegExp (before), ${length} characters`, () => {
    if (hostileOld(args)) sink += 1;
  });
}
for (const length of [24, 28, 64, 100_000]) {
  const args = hostileArgs(length);
  hostile.add(`linear-time engine, ${length} characters`, () => {
    if (validator.check('hostile', HOSTILE, args).valid) sink += 1;
  });
}
await hostile.run();
printRatios(hostile, 'backtracking RegExp (before), 24 characters', 1, 'µs');
const at24 = meanMs(hostile, 'backtracking RegExp (before), 24 characters');
console.log(
  `the backtracking engine doubles per character: ~${((at24 * 16) / 1000).toFixed(0)} s at 28 characters, ~${((at24 * 2 ** 40) / 3.15e10).toExponential(1)} years at 64`,
);

// The worst the budget allows: a pattern whose automaton has more states than any cache holds,
// so each character costs a step per instruction, against random a/b text of 1 MiB.
const WORST_REPEAT = 330;
const WORST = {
  type: 'object',
  properties: { text: { type: 'string', pattern: `a(?:a|b){${WORST_REPEAT}}c` } },
};
validator.compile('worst', WORST);
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const worstArgs = {
  text: `${Array.from({ length: 2 ** 20 - 1 }, () => (random() < 0.5 ? 'a' : 'b')).join('')}c`,
};
const worst = new Bench({
  name: `the largest pattern allowed that defeats the automaton cache, a(?:a|b){${WORST_REPEAT}}c, against 1 MiB of random a/b (per check)`,
  time: 0,
  iterations: Number(process.env.WORST_ITERATIONS ?? 3),
  warmup: false,
});
worst.add('linear-time engine, 1 MiB', () => {
  if (validator.check('worst', WORST, worstArgs).valid) sink += 1;
});
await worst.run();
printRatios(worst, 'linear-time engine, 1 MiB', 1, 'ms');
if (sink < 0) console.log(sink);
