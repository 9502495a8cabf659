/** A decoded escape: its value and where reading resumes. */
export interface DecodedEscape {
  readonly value: string;
  readonly next: number;
}

/** A malformed escape; `incomplete` when the text ended inside it. */
export interface EscapeError {
  readonly error: string;
  readonly incomplete: boolean;
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['b', '\b'],
  ['f', '\f'],
  ['v', '\v'],
  ['0', '\0'],
]);

/**
 * Decodes the escape whose character (after the backslash) is at `index`, with JavaScript's
 * rules: `\n \t \r \b \f \v \0`, `\uXXXX`, `\u{X…}`, `\xXX`, a backslash before a line break
 * continues the line, and any other character stands for itself (`\"`, `\'`, `` \` ``, `\\`,
 * `\/`). Returns an error when the escape is malformed or cut short.
 */
export function readEscape(text: string, index: number): DecodedEscape | EscapeError {
  if (index >= text.length)
    return { error: 'a string ends with a lone backslash', incomplete: true };
  const char = text[index]!;
  const simple = SIMPLE_ESCAPES.get(char);
  if (simple !== undefined) return { value: simple, next: index + 1 };
  if (char === 'u') return readUnicode(text, index + 1);
  if (char === 'x') return readHex(text, index + 1, 2, '\\x');
  if (char === '\r') {
    return { value: '', next: text.charCodeAt(index + 1) === 0x0a ? index + 2 : index + 1 };
  }
  if (char === '\n') return { value: '', next: index + 1 };
  // Keep surrogate pairs whole when a backslash precedes an astral character.
  const code = text.codePointAt(index) ?? 0;
  return { value: String.fromCodePoint(code), next: index + (code > 0xffff ? 2 : 1) };
}

function readUnicode(text: string, index: number): DecodedEscape | EscapeError {
  if (text[index] !== '{') return readHex(text, index, 4, '\\u');
  const close = text.indexOf('}', index + 1);
  if (close < 0) return { error: 'a \\u{…} escape is not closed', incomplete: true };
  const digits = text.slice(index + 1, close);
  const code = /^[0-9a-fA-F]{1,6}$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
  if (!(code <= 0x10ffff)) return { error: `invalid escape \\u{${digits}}`, incomplete: false };
  return { value: String.fromCodePoint(code), next: close + 1 };
}

function readHex(
  text: string,
  index: number,
  count: number,
  prefix: string,
): DecodedEscape | EscapeError {
  const digits = text.slice(index, index + count);
  if (digits.length < count && /^[0-9a-fA-F]*$/.test(digits)) {
    return { error: `a ${prefix} escape is cut short`, incomplete: true };
  }
  if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length < count) {
    return {
      error: `${prefix} must be followed by ${count} hexadecimal digits`,
      incomplete: false,
    };
  }
  return { value: String.fromCharCode(Number.parseInt(digits, 16)), next: index + count };
}
