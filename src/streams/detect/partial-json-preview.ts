import type { JsonObject, JsonValue } from '../../tools/json.js';

// Where each open container stands, kept on a stack.
const OBJECT_KEY = 1; // after `{` or `,`: a key or `}` comes next
const OBJECT_COLON = 2; // after a key: `:` comes next
const OBJECT_VALUE = 3; // after `:`: a value comes next
const OBJECT_NEXT = 4; // after a value: `,` or `}` comes next
const ARRAY_VALUE = 5; // after `[` or `,`: a value or `]` comes next
const ARRAY_NEXT = 6; // after a value: `,` or `]` comes next

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An open object or array, and where it sits in its parent. */
interface Frame {
  readonly container: JsonObject | JsonValue[];
  phase: number;
  /** The key of the member being read (objects only). */
  key: string;
  /** Its key or index in the parent container (unused for the root). */
  readonly slot: string | number;
}

/**
 * A best-effort preview of JSON that is still streaming: `{"path": "a.md", "body": "hel` reads
 * as `{path: 'a.md', body: 'hel'}` — open strings and containers shown as far as they go, a key
 * without its value left out, a number or literal shown once it could be complete.
 *
 * Feed the text in pieces; each piece is scanned once and the value is built as it goes (values
 * never change once complete). `value()` copies only the containers still open, shallowly, so a
 * preview handed out earlier never changes under its holder, and it costs what those containers
 * hold rather than the length of the text. Text that is not JSON previews as undefined from the
 * first character that breaks the grammar.
 */
export class PartialJsonPreview {
  private readonly frames: Frame[] = [];
  private root: JsonValue | undefined;
  /** The whole top-level value has been read: what follows does not matter. */
  private complete = false;
  /** The text broke the JSON grammar. */
  private broken = false;
  private inString = false;
  private stringIsKey = false;
  /** The open string, decoded as far as earlier chunks went. */
  private decoded = '';
  /** Raw text of the open string carried over from the last chunk: an escape cut in two. */
  private carry = '';
  /** Where the raw text of the open string starts in the current chunk. */
  private runStart = 0;
  /** Hex digits still to read in a `\u` escape; -1 right after a backslash; 0 outside one. */
  private escapePending = 0;
  /** The number or literal being read: its text from earlier chunks, and its start in this one. */
  private token: string | undefined;
  private tokenStart = 0;

  /** Scans the next piece of the text. */
  feed(chunk: string): void {
    this.scan(chunk);
    // Whatever of an open string or token ends this chunk is kept, so no chunk is read twice.
    if (this.inString) this.decodeOpenString(chunk);
    if (this.token !== undefined) this.token += chunk.slice(this.tokenStart);
    this.runStart = 0;
    this.tokenStart = 0;
  }

  /** The preview of everything fed so far. */
  value(): JsonValue | undefined {
    if (this.broken) return undefined;
    const pending = this.pendingValue();
    const { frames } = this;
    if (frames.length === 0) return this.root !== undefined ? this.root : pending;
    const copies = frames.map(({ container }) =>
      Array.isArray(container) ? container.slice() : { ...container },
    );
    for (let level = 1; level < copies.length; level += 1) {
      place(copies[level - 1]!, frames[level]!.slot, copies[level]!);
    }
    const top = frames[frames.length - 1]!;
    const innermost = copies[copies.length - 1]!;
    if (pending !== undefined && top.phase === OBJECT_VALUE) place(innermost, top.key, pending);
    if (pending !== undefined && top.phase === ARRAY_VALUE)
      (innermost as JsonValue[]).push(pending);
    return copies[0];
  }

  /** The value being read at the end of what was fed, as far as it can be shown. */
  private pendingValue(): JsonValue | undefined {
    if (this.inString && !this.stringIsKey) return this.decoded;
    return this.token === undefined ? undefined : tokenValue(this.token);
  }

  private scan(chunk: string): void {
    const length = chunk.length;
    let index = 0;
    while (index < length && !this.complete && !this.broken) {
      const code = chunk.charCodeAt(index);
      if (this.inString) {
        index = this.scanString(chunk, index, code);
        continue;
      }
      if (this.token !== undefined) {
        if (!isDelimiter(code)) {
          index += 1;
          continue;
        }
        this.endToken(this.token + chunk.slice(this.tokenStart, index));
        if (this.broken) break;
      }
      this.scanStructure(code, index);
      index += 1;
    }
  }

  /**
   * Consumes string characters from `index`; returns where scanning resumes. Escapes are only
   * tracked here (so a chunk never ends the decoded text inside one); the raw text is decoded in
   * one piece per chunk.
   */
  private scanString(text: string, index: number, code: number): number {
    if (this.escapePending !== 0) {
      if (this.escapePending < 0) this.escapePending = code === 0x75 ? 4 : 0;
      else this.escapePending -= 1;
      return index + 1;
    }
    if (code === BACKSLASH) {
      this.escapePending = -1;
      return index + 1;
    }
    if (code < 0x20) {
      // JSON strings hold no raw control characters; the arguments will not parse either.
      this.broken = true;
      return index + 1;
    }
    if (code === QUOTE) {
      const value = this.decoded + this.decode(this.carry + text.slice(this.runStart, index));
      this.inString = false;
      this.decoded = '';
      this.carry = '';
      if (this.stringIsKey) {
        const top = this.frames[this.frames.length - 1]!;
        top.key = value;
        top.phase = OBJECT_COLON;
      } else {
        this.attach(value);
      }
      return index + 1;
    }
    let next = index + 1;
    while (next < text.length) {
      const following = text.charCodeAt(next);
      if (following === QUOTE || following === BACKSLASH || following < 0x20) break;
      next += 1;
    }
    return next;
  }

  /** The chunk ended inside a string: decode its text up to any escape cut in two. */
  private decodeOpenString(chunk: string): void {
    const raw = this.carry + chunk.slice(this.runStart);
    const pending =
      this.escapePending === 0 ? 0 : this.escapePending < 0 ? 1 : 6 - this.escapePending;
    this.decoded += this.decode(raw.slice(0, raw.length - pending));
    this.carry = raw.slice(raw.length - pending);
  }

  /** JSON string content without its quotes, decoded; marks the text broken when invalid. */
  private decode(raw: string): string {
    if (raw.indexOf('\\') < 0) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      this.broken = true;
      return '';
    }
  }

  private scanStructure(code: number, index: number): void {
    const top = this.frames[this.frames.length - 1];
    switch (code) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        return;
      case 0x7b: // {
        this.open({}, OBJECT_KEY);
        return;
      case 0x5b: // [
        this.open([], ARRAY_VALUE);
        return;
      case QUOTE:
        this.stringIsKey = top?.phase === OBJECT_KEY;
        if (!this.stringIsKey && !this.expectsValue()) this.broken = true;
        this.inString = true;
        this.runStart = index + 1;
        return;
      case 0x3a: // :
        if (top?.phase === OBJECT_COLON) top.phase = OBJECT_VALUE;
        else this.broken = true;
        return;
      case 0x2c: // ,
        if (top?.phase === OBJECT_NEXT) top.phase = OBJECT_KEY;
        else if (top?.phase === ARRAY_NEXT) top.phase = ARRAY_VALUE;
        else this.broken = true;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        if (top === undefined || Array.isArray(top.container) !== (code === 0x5d)) {
          this.broken = true;
          return;
        }
        this.frames.pop();
        if (this.frames.length === 0) this.complete = true;
        return;
      default:
        if (!this.expectsValue()) this.broken = true;
        this.token = '';
        this.tokenStart = index;
    }
  }

  private expectsValue(): boolean {
    const top = this.frames[this.frames.length - 1];
    if (top === undefined) return this.root === undefined;
    return top.phase === OBJECT_VALUE || top.phase === ARRAY_VALUE;
  }

  private open(container: JsonObject | JsonValue[], phase: number): void {
    if (!this.expectsValue()) {
      this.broken = true;
      return;
    }
    const top = this.frames[this.frames.length - 1];
    const slot =
      top === undefined ? '' : Array.isArray(top.container) ? top.container.length : top.key;
    this.attach(container);
    this.frames.push({ container, phase, key: '', slot });
  }

  private endToken(token: string): void {
    this.token = undefined;
    const value = tokenValue(token);
    if (value === undefined) this.broken = true;
    else this.attach(value);
  }

  /** A complete value (or a container just opened) joins its parent. */
  private attach(value: JsonValue): void {
    const top = this.frames[this.frames.length - 1];
    if (top === undefined) {
      this.root = value;
      if (typeof value !== 'object' || value === null) this.complete = true;
    } else if (top.phase === OBJECT_VALUE) {
      place(top.container, top.key, value);
      top.phase = OBJECT_NEXT;
    } else if (top.phase === ARRAY_VALUE) {
      (top.container as JsonValue[]).push(value);
      top.phase = ARRAY_NEXT;
    }
  }
}

/** Sets a member without ever touching a prototype (`__proto__` stays a plain key). */
function place(container: JsonObject | JsonValue[], slot: string | number, value: JsonValue): void {
  if (Array.isArray(container)) container[slot as number] = value;
  else if (slot === '__proto__') {
    Object.defineProperty(container, slot, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else container[slot] = value;
}

/** A number or literal, or undefined when the token is not (yet) one. */
function tokenValue(token: string): JsonValue | undefined {
  if (token === 'true') return true;
  if (token === 'false') return false;
  if (token === 'null') return null;
  return NUMBER.test(token) ? Number(token) : undefined;
}

function isDelimiter(code: number): boolean {
  return (
    code === 0x2c ||
    code === 0x7d ||
    code === 0x5d ||
    code === 0x3a ||
    code === 0x20 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09
  );
}
