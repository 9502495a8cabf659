import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../src/errors.js';
import { checkSchema, createAjv } from '../../src/tools/ajv-instance.js';
import { BASE_OPTIONS } from '../../src/tools/ajv-options.js';
import { defineTool } from '../../src/tools/define-tool.js';

const require = createRequire(import.meta.url);
const suite = fileURLToPath(
  new URL('../fixtures/json-schema-test-suite/draft2020-12/', import.meta.url),
);

/** Every schema of the official 2020-12 suite (valid ones), and schemas the meta-schema refuses. */
function schemas(): unknown[] {
  const found: unknown[] = [];
  for (const file of readdirSync(suite).filter((name) => name.endsWith('.json'))) {
    for (const group of JSON.parse(readFileSync(`${suite}${file}`, 'utf8')) as {
      schema: unknown;
    }[]) {
      found.push(group.schema);
    }
  }
  return [
    ...found,
    { type: 'strin' },
    { required: 'a' },
    { properties: [] },
    { minimum: 'x' },
    { $defs: { a: { type: 5 } } },
    { items: { type: 'bogus' } },
    { properties: { a: { enum: 'x' } } },
    { allOf: [] },
    { $anchor: '1bad' },
    { dependentRequired: { a: [1] } },
    { uniqueItems: 'yes', maxItems: -1 },
  ];
}

/** What ajv's own meta-schema check says of `schema`: its verdict and its error text. */
function ajvOwnVerdict(ajv: Ajv, schema: unknown): string {
  try {
    const valid = ajv.validateSchema(schema as object);
    return valid === true ? 'valid' : `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
  } catch (error) {
    // A `$schema` ajv does not know.
    return (error as Error).message;
  }
}

function precompiledVerdict(ajv: Ajv, schema: unknown): string {
  try {
    checkSchema(ajv, schema as Parameters<typeof checkSchema>[1]);
    return 'valid';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the precompiled 2020-12 meta-schema check', () => {
  const setup = { dialect: '2020-12', formats: 'assert', ownProperties: false, resources: {} };
  const precompiled = createAjv({ ...setup } as Parameters<typeof createAjv>[0]);
  // ajv checking schemas itself, with the very options the precompiled check was made with.
  const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (options: object) => Ajv };
  const own = new Ajv2020({ ...BASE_OPTIONS, validateFormats: true });
  require('ajv-formats').default(own);

  it('agrees with ajv on every schema of the official suite and on refused ones, error for error', () => {
    const all = schemas();
    let refused = 0;
    for (const schema of all) {
      const expected = ajvOwnVerdict(own, schema);
      expect(precompiledVerdict(precompiled, schema), JSON.stringify(schema)).toBe(expected);
      if (expected !== 'valid') refused += 1;
    }
    expect(refused).toBeGreaterThanOrEqual(11);
    expect(all.length).toBeGreaterThan(300);
  });

  it('still refuses a tool whose schema the meta-schema refuses, at definition', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'x',
        inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } as never,
        handler: () => 1,
      }),
    ).toThrow(ToolDefinitionError);
  });

  it('is the code the generator makes from the installed ajv (run the script after an upgrade)', () => {
    const script = fileURLToPath(
      new URL('../../scripts/generate-meta-validator.ts', import.meta.url),
    );
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', script, '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
