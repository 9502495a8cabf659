/**
 * The character sets of ECMAScript's `u`-mode class escapes, written for RE2, where their meaning
 * differs: RE2's `\s` lacks `\v` and every Unicode space, and `\p{…}` takes other names.
 */

const MAX_CODE_POINT = 0x10ffff;

/** `\x{…}`: a code point spelled so RE2 reads it literally wherever it stands. */
export function codePoint(value: number): string {
  return `\\x{${value.toString(16)}}`;
}

/** Inclusive ranges as RE2 class contents. */
function rangesText(ranges: readonly (readonly [number, number])[]): string {
  return ranges
    .map(([low, high]) => (low === high ? codePoint(low) : `${codePoint(low)}-${codePoint(high)}`))
    .join('');
}

/** The code points outside sorted, disjoint ranges. */
function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const outside: [number, number][] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) outside.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) outside.push([next, MAX_CODE_POINT]);
  return outside;
}

const DIGITS: readonly [number, number][] = [[0x30, 0x39]];
const WORD: readonly [number, number][] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** ECMAScript's WhiteSpace and LineTerminator: what `\s` matches. */
const SPACE: readonly [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const ANY: readonly [number, number][] = [[0, MAX_CODE_POINT]];
const ASCII: readonly [number, number][] = [[0, 0x7f]];

const ESCAPE_SETS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  d: DIGITS,
  w: WORD,
  s: SPACE,
};

/**
 * RE2 class contents (no brackets) of `\d`, `\w`, `\s` and their negations `\D`, `\W`, `\S`,
 * as ECMAScript means them.
 */
export function escapeSet(letter: string): string {
  const lower = letter.toLowerCase();
  const ranges = ESCAPE_SETS[lower]!;
  return rangesText(letter === lower ? ranges : complement(ranges));
}

/** Line terminators, which `.` does not match without the `s` flag. */
export const DOT = `[^${rangesText([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;

/** Every code point, and none: RE2 has no `[^]` nor `[]`. */
export const ANY_CHARACTER = `[${rangesText(ANY)}]`;
export const NO_CHARACTER = `[^${rangesText(ANY)}]`;

/** General categories by their long names; RE2 takes the short ones. */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Private_Use: 'Co',
  Surrogate: 'Cs',
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORIES));

/**
 * RE2 class contents (no brackets) of `\p{name}` (or `\P{name}` when `negated`). General categories and
 * scripts (`Script=Greek`) map to RE2's names; `Any` and `ASCII` to ranges. What RE2 cannot say
 * the same way throws: `Other`/`C` and `Unassigned` (RE2 knows no unassigned code points),
 * `Cased_Letter`, script extensions and the other binary properties.
 */
export function propertySet(name: string, negated: boolean): string {
  const [key, value] = name.includes('=') ? name.split('=', 2) : [undefined, name];
  if (value === undefined) throw new Error(`\\p{${name}} is not a Unicode property`);
  let re2Name: string | undefined;
  if (key === 'General_Category' || key === 'gc' || key === undefined) {
    re2Name = Object.hasOwn(CATEGORIES, value) ? CATEGORIES[value] : undefined;
    if (re2Name === undefined && SHORT_CATEGORIES.has(value)) re2Name = value;
    if (key === undefined && (value === 'Any' || value === 'ASCII')) {
      const ranges = value === 'Any' ? ANY : ASCII;
      return rangesText(negated ? complement(ranges) : ranges);
    }
  } else if (key === 'Script' || key === 'sc') {
    re2Name = /^[A-Z][A-Za-z_]*$/.test(value) ? value : undefined;
  }
  if (re2Name === undefined) {
    throw new Error(`the Unicode property \\p{${name}} has no linear-time equivalent here`);
  }
  return `\\${negated ? 'P' : 'p'}{${re2Name}}`;
}
