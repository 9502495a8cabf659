import { describe, expect, it } from 'vitest';
import { pointerToPath, repairMessage, type SchemaIssue } from '../../src/tools/repair-message.js';
import { type ArgumentCheck, SchemaValidator } from '../../src/tools/schema-validator.js';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'integer' },
    mode: { const: 'fast' },
    when: { type: 'string', format: 'date' },
    owner: {
      type: 'object',
      properties: {
        role: { type: 'string', enum: ['admin', 'member'] },
        age: { type: 'integer' },
      },
      required: ['role'],
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};

const validator = new SchemaValidator();

function failing(args: unknown): Extract<ArgumentCheck, { valid: false }> {
  const check = validator.check('weather', schema, args);
  if (check.valid) throw new Error('expected the arguments to fail');
  return check;
}

function issueAt(check: Extract<ArgumentCheck, { valid: false }>, path: string): SchemaIssue {
  const issue = check.issues.find((candidate) => candidate.path === path);
  if (issue === undefined) throw new Error(`no issue at ${path}: ${check.repair}`);
  return issue;
}

describe('repair messages', () => {
  it('names a missing key, its expected type and its allowed values', () => {
    const check = failing({ city: 'Oslo' });
    const issue = issueAt(check, 'unit');
    expect(issue.keyword).toBe('required');
    expect(issue.expected).toBe('string');
    expect(issue.allowed).toEqual(['c', 'f']);
    expect(check.repair).toContain('- unit: missing required property (expected string)');
    expect(check.repair).toContain('allowed values: "c", "f"');
  });

  it('names a key of the wrong type with the expected type and what it got', () => {
    const check = failing({ city: 'Oslo', unit: 'c', days: 'three' });
    const issue = issueAt(check, 'days');
    expect(issue).toMatchObject({ keyword: 'type', expected: 'integer' });
    expect(check.repair).toContain('- days: must be integer; got string "three"');
  });

  it('lists the allowed values of an enum', () => {
    const check = failing({ city: 'Oslo', unit: 'kelvin' });
    expect(issueAt(check, 'unit').allowed).toEqual(['c', 'f']);
    expect(check.repair).toContain('- unit: must be one of "c", "f"; got "kelvin"');
  });

  it('names nested keys with dotted and indexed paths', () => {
    const check = failing({
      city: 'Oslo',
      unit: 'c',
      owner: { role: 'root', age: 'old' },
      items: [{ name: 'a' }, { name: 3 }, { extra: true }],
    });
    expect(issueAt(check, 'owner.role').allowed).toEqual(['admin', 'member']);
    expect(issueAt(check, 'owner.age').expected).toBe('integer');
    expect(issueAt(check, 'items[1].name').expected).toBe('string');
    expect(issueAt(check, 'items[2].name').keyword).toBe('required');
    expect(issueAt(check, 'items[2].extra').keyword).toBe('additionalProperties');
    expect(check.repair).toContain('- owner.role: must be one of "admin", "member"; got "root"');
    expect(check.repair).toContain('- items[1].name: must be string; got integer 3');
  });

  it('names a missing nested key with its expected type and allowed values', () => {
    const check = failing({ city: 'Oslo', unit: 'c', owner: {} });
    const issue = issueAt(check, 'owner.role');
    expect(issue).toMatchObject({ keyword: 'required', expected: 'string' });
    expect(issue.allowed).toEqual(['admin', 'member']);
  });

  it('names an unexpected key and the keys allowed there', () => {
    const check = failing({ city: 'Oslo', unit: 'c', zip: '0150' });
    const issue = issueAt(check, 'zip');
    expect(issue.keyword).toBe('additionalProperties');
    expect(issue.allowed).toContain('city');
    expect(check.repair).toMatch(/- zip: unexpected property; allowed properties here: city, unit/);
  });

  it('explains const, format and other keywords', () => {
    const check = failing({ city: 'O', unit: 'c', mode: 'slow', when: 'soon' });
    expect(issueAt(check, 'mode')).toMatchObject({ keyword: 'const', allowed: ['fast'] });
    expect(issueAt(check, 'when').message).toContain('format "date"');
    expect(issueAt(check, 'city').keyword).toBe('minLength');
  });

  it('addresses the arguments object itself when it is the wrong type', () => {
    const check = failing([1, 2]);
    expect(issueAt(check, '(arguments)').keyword).toBe('type');
  });

  it('ends with what the model should do next', () => {
    expect(failing({}).repair).toMatch(
      /^Invalid arguments for tool "weather":\n[\s\S]*\nCall weather again with arguments that satisfy its input schema\.$/,
    );
  });

  it('caps the listed issues at 20 and counts the rest', () => {
    const issues = Array.from({ length: 25 }, (_, index) => ({
      path: `k${index}`,
      keyword: 'type',
      message: 'must be string',
    }));
    const text = repairMessage('t', issues);
    expect(text).toContain('- k19: must be string');
    expect(text).not.toContain('- k20:');
    expect(text).toContain('- … and 5 more');
  });
});

describe('pointerToPath', () => {
  it.each([
    ['', undefined, '(arguments)'],
    ['', 'city', 'city'],
    ['/items/0/name', undefined, 'items[0].name'],
    ['/a~1b/c~0d', undefined, '["a/b"]["c~d"]'],
    ['/with space', 'x', '["with space"].x'],
    ['/0', undefined, '[0]'],
  ])('turns %j (+ %j) into %s', (pointer, extra, expected) => {
    expect(pointerToPath(pointer, extra)).toBe(expected);
  });
});
