import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonSchema } from '../../src/tools/json.js';
import { thrownBy } from '../support/thrown-by.js';
import { HOSTILE_CALLS } from './support/hostile-schemas.js';

const validateHostile = fileURLToPath(
  new URL('../fixtures/schemas/validate-hostile.ts', import.meta.url),
);

function definition(inputSchema: JsonSchema): unknown {
  return thrownBy(() =>
    defineTool({ name: 'listed', description: 'd', inputSchema, handler: () => 'ran' }),
  );
}

function nested(depth: number, wrap: (inner: JsonSchema) => JsonSchema): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level += 1) schema = wrap(schema);
  return { type: 'object', properties: { x: schema } };
}

describe('schemas written to hurt the validator', () => {
  it('refuses arguments against catastrophic patterns at once, wherever the pattern sits', async () => {
    // In a process of its own: a backtracking engine would never finish these, and a stalled
    // test process could not even report it.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', validateHostile],
      { timeout: 120_000 },
    );
    const verdicts = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; status: string; runs: number });
    expect(verdicts.map(({ name, status }) => [name, status])).toEqual(
      HOSTILE_CALLS.map(({ name }) => [name, 'schema_violation']),
    );
    expect(verdicts.at(-1)?.runs).toBe(0);
  }, 150_000);

  it.each([
    ['lookahead', '^(?=a)a$', /lookahead/],
    ['lookbehind', '(?<!a)b', /lookbehind/],
    ['a backreference', '^(a)\\1$', /backreference/],
    ['a named backreference', '^(?<x>a)\\k<x>$', /backreference/],
    // Node 22's V8 predates ES2025's modifiers and refuses the pattern as not ECMAScript at all.
    ['an inline modifier', '^(?i:a)$', /inline modifiers|Invalid group/],
    ['a repeat count above 1000', '^a{1001}$', /repeat count above 1000/],
    ['a program too large', `^${'[a-z]{1,999}'.repeat(3)}$`, /steps per character/],
    ['groups nested 600 deep', `${'('.repeat(600)}a${')'.repeat(600)}`, /nest deeper/],
    ['an unsupported Unicode property', '^\\p{Script_Extensions=Latin}$', /Unicode property/],
    ['a pattern that is not ECMAScript', '^[a-z', /pattern .* is refused/],
  ])('refuses %s at definition, naming the pattern and why', (_, pattern, reason) => {
    for (const inputSchema of [
      { type: 'object', properties: { s: { type: 'string', pattern } } },
      { type: 'object', patternProperties: { [pattern]: { type: 'string' } } },
    ]) {
      const error = definition(inputSchema);
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).rule).toBe('schema_invalid');
      expect((error as Error).message).toContain(JSON.stringify(pattern));
      expect((error as Error).message).toMatch(reason);
    }
  });

  it.each([
    ['allOf', (inner: JsonSchema) => ({ allOf: [inner] })],
    ['properties', (inner: JsonSchema) => ({ type: 'object', properties: { a: inner } })],
    ['default data', (inner: JsonSchema) => ({ default: inner })],
  ])(
    'refuses a schema nested 100 000 deep through %s with a definition error, not a stack overflow',
    (_, wrap) => {
      const error = definition(nested(100_000, wrap));
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toMatch(/nested too deeply|invalid JSON Schema/);
    },
  );
});
