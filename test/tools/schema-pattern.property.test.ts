import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateEcmaPattern } from '../../src/tools/ecma-pattern.js';
import { compileSchemaPattern, MAX_PATTERN_SIZE } from '../../src/tools/schema-pattern.js';

/** Characters where ECMAScript and RE2 disagree unless the translation spells them out. */
const ALPHABET = [
  ...['a', 'b', 'Z', '0', '9', '_', '-', '.', ' ', '\t', '\v', '\f', '\n', '\r'],
  ...['\u00a0', '\u2028', '\u3000', '\ufeff', 'é', 'α', 'Ж', '٣', '😀', '🐲', '\u{1d7d8}'],
];

const ASTRAL = /[\u{10000}-\u{10ffff}]/u;

const text = fc
  .array(fc.constantFrom(...ALPHABET), { maxLength: 12 })
  .map((chars) => chars.join(''));

const literal = fc.constantFrom(
  ...['a', 'b', 'Z', '0', '_', 'é', 'α', '😀', ' ', '-'],
  ...['\\.', '\\-'.slice(1), '\\/', '\\\\', '\\(', '\\[', '\\{', '\\|', '\\$', '\\^'],
  ...['\\t', '\\n', '\\v', '\\f', '\\r', '\\0', '\\cJ', '\\x41', '\\u00e9', '\\u{1F600}'],
  ...['\\uD83D\\uDE00', '\\u03b1'],
);
const classEscape = fc.constantFrom(
  ...['\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '.'],
  ...['\\p{L}', '\\p{Lu}', '\\P{L}', '\\p{Letter}', '\\p{Nd}', '\\p{digit}', '\\p{Zs}'],
  ...['\\p{Script=Greek}', '\\p{sc=Cyrillic}', '\\p{ASCII}', '\\P{Any}'],
);
const classMember = fc.constantFrom(
  ...['a', 'z', '0', 'é', '😀', '_', '\\-', '\\]', '\\\\', '\\b', '\\d', '\\D', '\\s', '\\S'],
  ...['\\w', '\\W', '\\p{L}', '\\P{Nd}', 'a-z', '0-9', 'α-ω', '\\u0000-\\u001f', '\\t-\\r'],
);
const characterClass = fc
  .record({
    negated: fc.boolean(),
    members: fc.array(classMember, { maxLength: 4 }),
  })
  .map(({ negated, members }) => `[${negated ? '^' : ''}${members.join('')}]`);
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '{2,3}?');

/** Patterns from the part of ECMAScript a linear-time engine can run. */
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: literal },
    { weight: 3, arbitrary: classEscape },
    { weight: 3, arbitrary: characterClass },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('(', '(?:', '(?<name>'), tie('disjunction'))
        .map(([open, inner]) => `${open}${inner})`),
    },
  ),
  term: fc.oneof(
    { weight: 6, arbitrary: fc.tuple(tie('atom'), quantifier).map(([atom, q]) => `${atom}${q}`) },
    { weight: 1, arbitrary: fc.constantFrom('^', '$', '\\b', '\\B') },
  ),
  alternative: fc.array(tie('term'), { maxLength: 4 }).map((terms) => terms.join('')),
  disjunction: fc
    .array(tie('alternative'), { minLength: 1, maxLength: 3 })
    .map((alternatives) => alternatives.join('|')),
})).disjunction as fc.Arbitrary<string>;

function isEcmaScript(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

describe('schema patterns on the linear-time engine', () => {
  it('match exactly what ECMAScript matches, for patterns and texts built from where the engines differ', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
        fc.pre(isEcmaScript(source) && translateEcmaPattern(source).size <= MAX_PATTERN_SIZE);
        const linear = compileSchemaPattern(source);
        const ecma = new RegExp(source, 'u');
        for (const candidate of texts) {
          // V8 tries `\B` between the two halves of a surrogate pair, where the specification's
          // search (by code point under `u`), and the linear engine, never stand.
          if (source.includes('\\B') && ASTRAL.test(candidate)) continue;
          expect(linear.test(candidate), `${source} on ${JSON.stringify(candidate)}`).toBe(
            ecma.test(candidate),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('search by code point, as the specification says under `u` (V8 also tries inside a surrogate pair)', () => {
    expect(compileSchemaPattern('\\B').test('a😀a')).toBe(false);
    expect(compileSchemaPattern('\\B').test('a😀😀a')).toBe(true);
  });

  it('match a lone surrogate as ECMAScript does', () => {
    for (const source of ['^.$', '^[^a]$', '^\\S$', '^[\\ud800-\\udbff]$', '^\\P{L}$']) {
      expect(compileSchemaPattern(source).test('\ud800'), source).toBe(
        new RegExp(source, 'u').test('\ud800'),
      );
    }
  });
});
