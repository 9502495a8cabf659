import { createReadStream, openSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from './exit-codes.js';

/**
 * Cuts text that arrives in chunks into lines, ending a line where `readline` does with
 * `crlfDelay: Infinity`: at `\n`, at `\r\n` (even split across two chunks) and at a lone `\r`.
 * A chunk's lines come out together, so a reader pays per chunk, not per line.
 */
export class LineSplitter {
  /** The text after the last `\n` seen: the start of a line still arriving. */
  private rest = '';

  /** Appends the lines that `chunk` completes to `lines`. */
  push(chunk: string, lines: string[]): void {
    const text = this.rest === '' ? chunk : this.rest + chunk;
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1) {
      addLine(text.slice(start, end), lines);
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    this.rest = start === 0 ? text : text.slice(start);
  }

  /** Appends the last line when the text did not end with a line break. */
  end(lines: string[]): void {
    if (this.rest !== '') addLine(this.rest, lines);
    this.rest = '';
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
