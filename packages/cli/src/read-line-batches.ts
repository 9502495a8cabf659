import { createReadStream, openSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from './errors.js';

/** The longest line kept whole (characters since the last `\n`): 64 Mi. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * Cuts text that arrives in chunks into lines, ending a line where `readline` does with
 * `crlfDelay: Infinity`: at `\n`, at `\r\n` (even split across two chunks) and at a lone `\r`.
 * A chunk's lines come out together, so a reader pays per chunk, not per line. A line longer than
 * `maxLineChars` (counted from the last `\n`) comes out cut to `maxLineChars + 1` characters, so
 * a reader can tell, and the rest of it is dropped as it arrives: no line can exhaust memory or
 * JavaScript's longest string.
 */
export class LineSplitter {
  /** The text after the last `\n` seen: the start of a line still arriving (cut past the limit). */
  private rest = '';
  /** Set while the rest of a cut line is being dropped, until its `\n`. */
  private dropping = false;

  constructor(private readonly maxLineChars: number = MAX_LINE_CHARS) {}

  /** Appends the lines that `chunk` completes to `lines`. */
  push(chunk: string, lines: string[]): void {
    let text = chunk;
    if (this.dropping) {
      const newline = chunk.indexOf('\n');
      if (newline === -1) return;
      this.dropping = false;
      text = this.rest + chunk.slice(newline);
    } else if (this.rest !== '') text = this.rest + chunk;
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1) {
      addLine(text.slice(start, Math.min(end, start + this.maxLineChars + 1)), lines);
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    this.rest = start === 0 ? text : text.slice(start);
    if (this.rest.length > this.maxLineChars) {
      this.rest = this.rest.slice(0, this.maxLineChars + 1);
      this.dropping = true;
    }
  }

  /** Appends the last line when the text did not end with a line break. */
  end(lines: string[]): void {
    if (this.rest !== '') addLine(this.rest, lines);
    this.rest = '';
    this.dropping = false;
  }
}

/** One `\n`-ended piece: its `\r\n` loses the `\r`, and a lone `\r` inside also ends a line. */
function addLine(piece: string, lines: string[]): void {
  if (piece.indexOf('\r') === -1) {
    lines.push(piece);
    return;
  }
  const text = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
  for (const line of text.split('\r')) lines.push(line);
}

/**
 * The lines of a file (`-` reads `stdin`), a chunk's worth at a time and in order; empty lines
 * included, so the caller can number them.
 *
 * @throws InputError at once when the file cannot be opened.
 */
export function readLineBatches(
  path: string,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncIterable<string[]> {
  if (path === '-') return linesOf(stdin);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return linesOf(createReadStream(path, { fd, encoding: 'utf8' }));
}

async function* linesOf(input: NodeJS.ReadableStream): AsyncGenerator<string[]> {
  const splitter = new LineSplitter();
  // Chunks may be bytes (a raw stdin) whose characters straddle two chunks.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input as AsyncIterable<string | Buffer>) {
    const lines: string[] = [];
    splitter.push(typeof chunk === 'string' ? chunk : decoder.write(chunk), lines);
    if (lines.length > 0) yield lines;
  }
  const lines: string[] = [];
  splitter.push(decoder.end(), lines);
  splitter.end(lines);
  if (lines.length > 0) yield lines;
}
