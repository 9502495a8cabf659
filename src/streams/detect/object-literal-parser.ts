import type { JsonObject, JsonValue } from '../../tools/json.js';
import { readHeredoc } from './heredoc.js';
import { numberEnd } from './literal-number.js';
import { describeAt, LiteralSyntaxError } from './literal-syntax-error.js';
import { readEscape } from './string-escapes.js';
import { isKeyChar, isNameStart } from './text-chars.js';

const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const KEYWORDS = ['true', 'false', 'null', 'undefined'];

/** An object being read, with the key of the member whose value comes next. */
interface ObjectContainer {
  readonly kind: 'object';
  readonly value: JsonObject;
  key: string;
}
interface ArrayContainer {
  readonly kind: 'array';
  readonly value: JsonValue[];
}
type Container = ObjectContainer | ArrayContainer;
/** `openValue` opened a container: its items come next. */
const OPENED: unique symbol = Symbol('opened');

/**
 * A reader of the values models write as tool arguments: JSON, plus the
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

  /**
   * Reads one value; `undefined` stands for the `undefined` keyword. Containers are tracked on a
   * stack of their own, never the call stack, so any nesting depth parses or fails cleanly.
   */
  parseValue(): JsonValue | undefined {
    const open: Container[] = [];
    for (;;) {
      let value = this.openValue(open);
      if (value === OPENED) continue;
      // A complete value: place it in its container, closing every container it completes.
      for (;;) {
        const container = open.at(-1);
        if (container === undefined) return value as JsonValue | undefined;
        const closed =
          container.kind === 'object'
            ? this.afterMember(container, value as JsonValue | undefined)
            : this.afterItem(container, value as JsonValue | undefined);
        if (!closed) break;
        open.pop();
        value = container.value;
      }
    }
  }

  /** Reads a scalar, or opens a container (returns `OPENED`, or the container if it closes at once). */
  private openValue(open: Container[]): JsonValue | undefined | typeof OPENED {
    this.skipTrivia();
    if (this.atEnd()) this.fail('a value is missing', this.index, true);
    const code = this.peek();
    switch (code) {
      case 0x7b: {
        this.index += 1;
        const object: ObjectContainer = { kind: 'object', value: {}, key: '' };
        if (this.nextKey(object)) return object.value;
        open.push(object);
        return OPENED;
      }
      case 0x5b: {
        this.index += 1;
        const array: ArrayContainer = { kind: 'array', value: [] };
        if (this.arrayCloses()) return array.value;
        open.push(array);
        return OPENED;
      }
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

  /**
   * After `{` or `,`: reads the next key and its `:` into `object.key`, or the `}` that closes
   * the object (a trailing comma is allowed). Returns true when the object closed.
   */
  private nextKey(object: ObjectContainer): boolean {
    this.skipTrivia();
    if (this.atEnd()) this.fail('an object literal is not closed with `}`', this.index, true);
    if (this.peek() === 0x7d) {
      this.index += 1;
      return true;
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
    object.key = key;
    return false;
  }

  /** Sets the member just read, then reads `,` and the next key, or `}`. True when it closed. */
  private afterMember(object: ObjectContainer, value: JsonValue | undefined): boolean {
    setMember(object.value, object.key, value);
    this.skipTrivia();
    if (this.atEnd()) this.fail('an object literal is not closed with `}`', this.index, true);
    const next = this.peek();
    this.index += 1;
    if (next === 0x7d) return true;
    if (next !== 0x2c) {
      this.fail(
        `expected \`,\` or \`}\` after the value of \`${object.key}\`, found ${describeAt(this.text, this.index - 1)}`,
        this.index - 1,
      );
    }
    return this.nextKey(object);
  }

  /** After `[` or `,`: true when `]` closes the array (a trailing comma is allowed). */
  private arrayCloses(): boolean {
    this.skipTrivia();
    if (this.atEnd()) this.fail('an array is not closed with `]`', this.index, true);
    if (this.peek() !== 0x5d) return false;
    this.index += 1;
    return true;
  }

  /** Appends the item just read, then reads `,` or `]`. True when the array closed. */
  private afterItem(array: ArrayContainer, value: JsonValue | undefined): boolean {
    array.value.push(value ?? null);
    this.skipTrivia();
    if (this.atEnd()) this.fail('an array is not closed with `]`', this.index, true);
    const next = this.peek();
    this.index += 1;
    if (next === 0x5d) return true;
    if (next !== 0x2c) {
      this.fail(
        `expected \`,\` or \`]\` in the array, found ${describeAt(this.text, this.index - 1)}`,
        this.index - 1,
      );
    }
    return this.arrayCloses();
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
    const start = this.index;
    const read = numberEnd(this.text, start);
    if ('malformedAt' in read) {
      const at = read.malformedAt;
      this.fail(
        `malformed number \`${this.text.slice(start, at + 1)}\``,
        start,
        at >= this.text.length,
      );
    }
    this.index = read.end;
    return Number(this.text.slice(start, read.end));
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
