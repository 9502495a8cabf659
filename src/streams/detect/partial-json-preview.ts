import type { JsonValue } from '../../tools/json.js';

// The phase of each open container, kept on a stack. The kind of a container (object or array)
// follows from its phase, so closing brackets can be rebuilt from the stack alone.
const OBJECT_KEY = 1; // after `{` or `,`: a key or `}` comes next
const OBJECT_COLON = 2; // after a key: `:` comes next
const OBJECT_VALUE = 3; // after `:`: a value comes next
const OBJECT_NEXT = 4; // after a value: `,` or `}` comes next
const ARRAY_VALUE = 5; // after `[` or `,`: a value or `]` comes next
const ARRAY_NEXT = 6; // after a value: `,` or `]` comes next

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMPLETE_TOKEN = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/**
 * A best-effort preview of JSON that is still streaming: `{"path": "a.md", "body": "hel` reads
 * as `{path: 'a.md', body: 'hel'}`. The text is scanned incrementally (each character once over
 * the life of the call, however often a preview is asked for); the scan remembers the last place
 * where the text can be cut and closed into valid JSON. A preview then costs one `JSON.parse` of
 * that prefix plus its closing brackets. Values that are not JSON (or not yet far enough to show
 * anything) preview as undefined.
 */
export class PartialJsonPreview {
  /** Characters of the text already scanned. */
  private scanned = 0;
  /** Phase of each open container, outermost first. */
  private readonly stack: number[] = [];
  private inString = false;
  private stringIsKey = false;
  /** Hex digits still to read in a `\u` escape; -1 right after a backslash; 0 outside one. */
  private escapePending = 0;
  /** Start of the number or literal being read, or -1. */
  private tokenStart = -1;
  /** The top-level value is complete: nothing after it matters. */
  private complete = false;
  /** The last safe cut: text up to `safeEnd`, a `"` when inside a string, then closers. */
  private safeEnd = -1;
  private safeDepth = 0;
  private safeInString = false;

  /** The preview of `text`, which must extend the text of every earlier call. */
  preview(text: string): JsonValue | undefined {
    this.scan(text);
    let end = this.safeEnd;
    let depth = this.safeDepth;
    let inString = this.safeInString;
    if (this.tokenStart >= 0 && COMPLETE_TOKEN.test(text.slice(this.tokenStart))) {
      end = text.length;
      depth = this.stack.length;
      inString = false;
    }
    if (end < 0) return undefined;
    let closers = inString ? '"' : '';
    for (let level = depth - 1; level >= 0; level -= 1) {
      closers += (this.stack[level] ?? 0) <= OBJECT_NEXT ? '}' : ']';
    }
    try {
      return JSON.parse(text.slice(0, end) + closers) as JsonValue;
    } catch {
      return undefined;
    }
  }

  private scan(text: string): void {
    const length = text.length;
    let index = this.scanned;
    while (index < length && !this.complete) {
      const code = text.charCodeAt(index);
      if (this.inString) {
        index = this.scanString(text, index, code);
        continue;
      }
      if (this.tokenStart >= 0) {
        if (!isDelimiter(code)) {
          index += 1;
          continue;
        }
        this.tokenStart = -1;
        this.valueDone(index);
      }
      this.scanStructure(code, index);
      index += 1;
    }
    this.scanned = length;
  }

  /** Consumes string characters from `index`; returns where scanning resumes. */
  private scanString(text: string, index: number, code: number): number {
    if (this.escapePending !== 0) {
      // After the backslash comes one escape character, or `u` and four hex digits.
      if (this.escapePending < 0) this.escapePending = code === 0x75 ? 4 : 0;
      else this.escapePending -= 1;
      if (this.escapePending === 0 && !this.stringIsKey) this.safeEnd = index + 1;
      return index + 1;
    }
    if (code === BACKSLASH) {
      this.escapePending = -1;
      return index + 1;
    }
    if (code === QUOTE) {
      this.inString = false;
      if (this.stringIsKey) this.setTop(OBJECT_COLON);
      else this.valueDone(index + 1);
      return index + 1;
    }
    let next = index + 1;
    while (next < text.length) {
      const following = text.charCodeAt(next);
      if (following === QUOTE || following === BACKSLASH) break;
      next += 1;
    }
    if (!this.stringIsKey) this.safeEnd = next;
    return next;
  }

  private scanStructure(code: number, index: number): void {
    switch (code) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        return;
      case 0x7b: // {
        this.stack.push(OBJECT_KEY);
        this.markSafe(index + 1, false);
        return;
      case 0x5b: // [
        this.stack.push(ARRAY_VALUE);
        this.markSafe(index + 1, false);
        return;
      case QUOTE:
        this.inString = true;
        this.stringIsKey = this.top() === OBJECT_KEY;
        if (!this.stringIsKey) this.markSafe(index + 1, true);
        return;
      case 0x3a: // :
        if (this.top() === OBJECT_COLON) this.setTop(OBJECT_VALUE);
        return;
      case 0x2c: // ,
        if (this.top() === OBJECT_NEXT) this.setTop(OBJECT_KEY);
        else if (this.top() === ARRAY_NEXT) this.setTop(ARRAY_VALUE);
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.stack.pop();
        this.valueDone(index + 1);
        return;
      default:
        this.tokenStart = index;
    }
  }

  /** A value ended at `end`: the text up to there can be closed. */
  private valueDone(end: number): void {
    const top = this.top();
    if (top === undefined) this.complete = true;
    else if (top === OBJECT_VALUE) this.setTop(OBJECT_NEXT);
    else if (top === ARRAY_VALUE) this.setTop(ARRAY_NEXT);
    this.markSafe(end, false);
  }

  private markSafe(end: number, inString: boolean): void {
    this.safeEnd = end;
    this.safeDepth = this.stack.length;
    this.safeInString = inString;
  }

  private top(): number | undefined {
    return this.stack[this.stack.length - 1];
  }

  private setTop(phase: number): void {
    this.stack[this.stack.length - 1] = phase;
  }
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
