/** A JSON-RPC request id: a string or a number. */
export type JsonRpcId = string | number;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
/** Ids longer than this (in bytes, quotes and escapes included) are not echoed. */
const MAX_ID_BYTES = 256;

function isNumberByte(byte: number): boolean {
  // digits, '-', '+', '.', 'e', 'E'
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2b ||
    byte === 0x2e ||
    byte === 0x65 ||
    byte === 0x45
  );
}

function decodeId(bytes: readonly number[]): JsonRpcId | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      return value;
    }
  } catch {}
  return undefined;
}

/**
 * Finds the top-level `"id"` of a JSON object streamed through it in pieces, in constant memory,
 * without parsing the rest: how an oversized JSON-RPC message is still answered under its own
 * id. Reads a JSON text that may be malformed; it then finds what it can, never throws.
 */
export class JsonRpcIdScanner {
  /** Open `{` and `[` outside strings. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1 of an object, the next string is a key. */
  #expectingKey = false;
  /** The key just read at depth 1, until its `:`. */
  #key: JsonRpcId | undefined;
  /** The value now starting at depth 1 belongs to the key `"id"`. */
  #valueIsId = false;
  /** The token being captured (a depth-1 key, or the id's value), byte by byte. */
  #capture: 'key' | 'id' | undefined;
  #captured: number[] = [];
  #id: JsonRpcId | undefined;

  /** The id seen so far (the last `"id"` member wins, as with JSON.parse), or null. */
  get id(): JsonRpcId | null {
    // A number still being read when the text stops ends there.
    if (this.#capture === 'id' && this.#captured[0] !== QUOTE) {
      return decodeId(this.#captured) ?? this.#id ?? null;
    }
    return this.#id ?? null;
  }

  /** Reads the next piece of the text. */
  push(piece: Uint8Array): void {
    for (let index = 0; index < piece.length; index += 1) {
      this.#read(piece[index] as number);
    }
  }

  #read(byte: number): void {
    if (this.#inString) {
      this.#keep(byte);
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) {
        this.#inString = false;
        this.#finishCapture();
      }
      return;
    }
    if (this.#capture === 'id' && isNumberByte(byte)) {
      this.#keep(byte);
      return;
    }
    this.#finishCapture();
    if (byte === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && this.#expectingKey) this.#startCapture('key', byte);
      else if (this.#depth === 1 && this.#valueIsId) this.#startCapture('id', byte);
      this.#expectingKey = false;
      this.#valueIsId = false;
    } else if (byte === 0x7b || byte === 0x5b) {
      // `{` starts expecting keys only for the top-level object itself.
      this.#expectingKey = this.#depth === 0 && byte === 0x7b;
      this.#valueIsId = false;
      this.#depth += 1;
    } else if (byte === 0x7d || byte === 0x5d) {
      this.#depth -= 1;
    } else if (this.#depth === 1 && byte === COMMA) {
      this.#expectingKey = true;
    } else if (this.#depth === 1 && byte === COLON) {
      this.#valueIsId = this.#key === 'id';
      this.#key = undefined;
    } else if (this.#depth === 1 && this.#valueIsId && isNumberByte(byte)) {
      this.#valueIsId = false;
      this.#startCapture('id', byte);
    } else if (byte > 0x20) {
      // `true`, `false`, `null` or garbage: not an id.
      this.#valueIsId = false;
    }
  }

  #startCapture(kind: 'key' | 'id', byte: number): void {
    this.#capture = kind;
    this.#captured = [byte];
  }

  #keep(byte: number): void {
    if (this.#capture === undefined) return;
    if (this.#captured.length >= MAX_ID_BYTES) {
      this.#capture = undefined;
      this.#captured = [];
      return;
    }
    this.#captured.push(byte);
  }

  #finishCapture(): void {
    const kind = this.#capture;
    if (kind === undefined) return;
    this.#capture = undefined;
    const value = decodeId(this.#captured);
    this.#captured = [];
    if (kind === 'key') this.#key = value;
    else if (value !== undefined) this.#id = value;
  }
}
