import type { JsonObject, JsonValue } from '../../tools/json.js';
import { readHeredoc } from './heredoc.js';
import { readEscape } from './string-escapes.js';
import { isKeyChar, isNameStart } from './text-chars.js';

/**
 * Why a literal did not parse: what went wrong, where, and whether more text could still make it
 * parse (`incomplete`: the text ended inside the literal). Thrown inside the parser to unwind the
 * descent; never leaves `parseTextCall`.
 */
export class LiteralSyntaxError {
  constructor(
    readonly detail: string,
    readonly offset: number,
    readonly incomplete: boolean,
  ) {}
}

const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const KEYWORDS = ['true', 'false', 'null', 'undefined'];

/**
 * A recursive-descent reader of the values models write as tool arguments: JSON, plus the
 * relaxed TypeScript literal forms (unquoted keys, single-quoted and backtick strings, trailing
 * commas, `//` and `/* *\/` comments, `undefined`) and heredoc values (`<<TAG`, the lines that
 * follow, then a line starting with `TAG`). Keys such as `__proto__` stay plain data.
 */
export class ObjectLiteralParser {
  /** Position of the next unread character. */
  index: number;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.index = start;
  }

  /** True when every character was read. */
  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  /** The next character code (NaN at the end). */
  peek(): number {
    return this.text.charCodeAt(this.index);
  }

  /** Skips whitespace and comments. */
  skipTrivia(): void {
    const { text } = this;
    while (this.index < text.length) {
      const code = text.charCodeAt(this.index);
      if (code === 0x20 || code === 0x09 || code === NEWLINE || code === 0x0d) {
        this.index += 1;
      } else if (code === 0x2f && text.charCodeAt(this.index + 1) === 0x2f) {
        const lineEnd = text.indexOf('\n', this.index);
        this.index = lineEnd < 0 ? text.length : lineEnd + 1;
      } else if (code === 0x2f && text.charCodeAt(this.index + 1) === 0x2a) {
        const close = text.indexOf('*/', this.index + 2);
        if (close < 0) this.fail('a /* comment is not closed', this.index, true);
        this.index = close + 2;
      } else {
        return;
      }
    }
  }

  /** Reads one value; `undefined` stands for the `undefined` keyword. */
  parseValue(): JsonValue | undefined {
    this.skipTrivia();
    if (this.atEnd()) this.fail('a value is missing', this.index, true);
    const code = this.peek();
    switch (code) {
      case 0x7b:
        return this.parseObject();
      case 0x5b:
        return this.parseArray();
      case 0x22:
      case 0x27:
      case 0x60:
        return this.parseString(code);
      case 0x3c:
        if (this.text.charCodeAt(this.index + 1) === 0x3c || this.index + 1 >= this.text.length) {
          return this.parseHeredoc();
        }
        break;
      default:
        if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.parseNumber();
        if (isNameStart(code)) return this.parseKeyword();
    }
    return this.fail(`unexpected ${describeAt(this.text, this.index)} where a value should start`);
  }

  private parseObject(): JsonObject {
    this.index += 1;
    const object: JsonObject = {};
    for (;;) {
      this.skipTrivia();
      if (this.atEnd()) this.fail('an object literal is not closed with `}`', this.index, true);
      if (this.peek() === 0x7d) {
        this.index += 1;
        return object;
      }
      const key = this.parseKey();
      this.skipTrivia();
      if (this.atEnd()) this.fail(`the value of \`${key}\` is missing`, this.index, true);
      if (this.peek() !== 0x3a) {
        this.fail(
          `expected \`:\` after the key \`${key}\`, found ${describeAt(this.text, this.index)}`,
        );
      }
      this.index += 1;
      setMember(object, key, this.parseValue());
      this.skipTrivia();
      if (this.atEnd()) this.fail('an object literal is not closed with `}`', this.index, true);
      const next = this.peek();
      this.index += 1;
      if (next === 0x7d) return object;
      if (next !== 0x2c) {
        this.fail(
          `expected \`,\` or \`}\` after the value of \`${key}\`, found ${describeAt(this.text, this.index - 1)}`,
          this.index - 1,
        );
      }
    }
  }

  private parseKey(): string {
    const code = this.peek();
    if (code === 0x22 || code === 0x27 || code === 0x60) return this.parseString(code);
    if (!isNameStart(code)) {
      this.fail(
        `expected a key (a name or a quoted string), found ${describeAt(this.text, this.index)}`,
      );
    }
    const start = this.index;
    while (this.index < this.text.length && isKeyChar(this.peek())) this.index += 1;
    return this.text.slice(start, this.index);
  }

  private parseArray(): JsonValue[] {
    this.index += 1;
    const items: JsonValue[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.atEnd()) this.fail('an array is not closed with `]`', this.index, true);
      if (this.peek() === 0x5d) {
        this.index += 1;
        return items;
      }
      items.push(this.parseValue() ?? null);
      this.skipTrivia();
      if (this.atEnd()) this.fail('an array is not closed with `]`', this.index, true);
      const next = this.peek();
      this.index += 1;
      if (next === 0x5d) return items;
      if (next !== 0x2c) {
        this.fail(
          `expected \`,\` or \`]\` in the array, found ${describeAt(this.text, this.index - 1)}`,
          this.index - 1,
        );
      }
    }
  }

  /** A quoted string; copies runs between escapes in one slice each. */
  private parseString(quote: number): string {
    const { text } = this;
    const start = this.index;
    let index = start + 1;
    let runStart = index;
    let value = '';
    for (;;) {
      if (index >= text.length) this.fail('a string is not closed', start, true);
      const code = text.charCodeAt(index);
      if (code === quote) {
        this.index = index + 1;
        return value + text.slice(runStart, index);
      }
      if (code !== BACKSLASH) {
        index += 1;
        continue;
      }
      value += text.slice(runStart, index);
      const decoded = readEscape(text, index + 1);
      if ('error' in decoded) this.fail(decoded.error, index, decoded.incomplete);
      value += decoded.value;
      index = decoded.next;
      runStart = index;
    }
  }

  private parseHeredoc(): string {
    const read = readHeredoc(this.text, this.index);
    if (!read.ok) return this.fail(read.detail, read.offset, read.incomplete);
    this.index = read.end;
    return read.value;
  }

  private parseNumber(): number {
    const { text } = this;
    const start = this.index;
    let index = start;
    if (text.charCodeAt(index) === 0x2d) index += 1;
    const integerStart = index;
    index = skipDigits(text, index);
    if (index === integerStart) this.malformedNumber(start, index);
    if (text.charCodeAt(index) === 0x2e) {
      const fractionStart = index + 1;
      index = skipDigits(text, fractionStart);
      if (index === fractionStart) this.malformedNumber(start, index);
    }
    const exponent = text.charCodeAt(index);
    if (exponent === 0x65 || exponent === 0x45) {
      index += 1;
      const sign = text.charCodeAt(index);
      if (sign === 0x2b || sign === 0x2d) index += 1;
      const digitsStart = index;
      index = skipDigits(text, digitsStart);
      if (index === digitsStart) this.malformedNumber(start, index);
    }
    this.index = index;
    return Number(text.slice(start, index));
  }

  private malformedNumber(start: number, at: number): never {
    return this.fail(
      `malformed number \`${this.text.slice(start, at + 1)}\``,
      start,
      at >= this.text.length,
    );
  }

  private parseKeyword(): boolean | null | undefined {
    const start = this.index;
    while (this.index < this.text.length && isKeyChar(this.peek())) this.index += 1;
    const word = this.text.slice(start, this.index);
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (word === 'undefined') return undefined;
    if (this.atEnd() && KEYWORDS.some((keyword) => keyword.startsWith(word))) {
      this.fail(`the text ends inside \`${word}\``, start, true);
    }
    return this.fail(`unexpected \`${word}\`: text values must be quoted`, start);
  }

  fail(detail: string, offset = this.index, incomplete = false): never {
    throw new LiteralSyntaxError(detail, offset, incomplete);
  }
}

/** Sets a member the way a JavaScript literal would, without ever touching a prototype. */
function setMember(object: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value === undefined) {
    if (Object.hasOwn(object, key)) delete object[key];
  } else if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}

function skipDigits(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) break;
    index += 1;
  }
  return index;
}

/** The character at `index`, quoted for a message. */
export function describeAt(text: string, index: number): string {
  if (index >= text.length) return 'the end of the text';
  const char = text[index]!;
  if (char === '\n') return 'a line break';
  return `\`${char}\``;
}
