import { type JsonRpcId, JsonRpcIdScanner } from './json-rpc-id-scanner.js';

const NEWLINE = 0x0a;

/** A line longer than the bound: what is known of it once it ended. */
export interface OversizedLine {
  /** The top-level `"id"` the line's JSON object carried, or null. */
  readonly id: JsonRpcId | null;
  /** Its length in bytes, without the newline. */
  readonly bytes: number;
}

/** Options of a `BoundedLineReader`. */
export interface BoundedLineReaderOptions {
  /** The longest line kept, in bytes; a longer one is streamed through and reported. */
  readonly maxLineBytes: number;
  /** A complete line within the bound, without its newline. */
  readonly onLine: (line: Buffer) => void;
  /** A line past the bound, once its newline arrived. */
  readonly onOversized: (line: OversizedLine) => void;
}

/**
 * Splits a byte stream into newline-delimited lines, holding at most `maxLineBytes` of the line
 * being read: past the bound, the rest of the line only goes through an id scanner, so a line of
 * any length costs constant memory and is still reported (with its id) when it ends.
 */
export class BoundedLineReader {
  readonly #options: BoundedLineReaderOptions;
  /** Pieces of the current line while it is within the bound. */
  #held: Buffer[] = [];
  #heldBytes = 0;
  /** Set once the current line passed the bound: it reads the rest of the line. */
  #scanner: JsonRpcIdScanner | undefined;
  #scannedBytes = 0;

  constructor(options: BoundedLineReaderOptions) {
    this.#options = options;
  }

  /** Reads the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** Forgets the line being read. */
  clear(): void {
    this.#held = [];
    this.#heldBytes = 0;
    this.#scanner = undefined;
    this.#scannedBytes = 0;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (
      this.#scanner === undefined &&
      this.#heldBytes + piece.length <= this.#options.maxLineBytes
    ) {
      this.#held.push(piece);
      this.#heldBytes += piece.length;
      return;
    }
    if (this.#scanner === undefined) {
      this.#scanner = new JsonRpcIdScanner();
      for (const held of this.#held) this.#scanner.push(held);
      this.#scannedBytes = this.#heldBytes;
      this.#held = [];
      this.#heldBytes = 0;
    }
    this.#scanner.push(piece);
    this.#scannedBytes += piece.length;
  }

  #endLine(): void {
    const scanner = this.#scanner;
    if (scanner !== undefined) {
      const bytes = this.#scannedBytes;
      this.clear();
      this.#options.onOversized({ id: scanner.id, bytes });
      return;
    }
    const held = this.#held;
    this.clear();
    this.#options.onLine(held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held));
  }
}
