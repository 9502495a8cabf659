import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { InputError } from './exit-codes.js';

/**
 * The ids of the tasks an output file already holds a result for (a task stopped by Ctrl-C is
 * never written, so it is not among them). A last line cut off by a crash is removed from the
 * file, so the next line starts clean.
 *
 * @throws InputError when the file exists but cannot be read or written.
 */
export function finishedTaskIds(path: string): Set<string> {
  const ids = new Set<string>();
  if (!existsSync(path)) return ids;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
    const whole = text.lastIndexOf('\n') + 1;
    if (whole < text.length) {
      truncateSync(path, Buffer.byteLength(text.slice(0, whole)));
      text = text.slice(0, whole);
    }
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as Error).message}`);
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as { id?: unknown; status?: unknown };
      if (typeof record.id === 'string' && typeof record.status === 'string') ids.add(record.id);
    } catch {
      // not a result line: ignored
    }
  }
  return ids;
}

/** Appends result lines to a file, each with one synchronous write (a crash never splits one from the next). */
export class ResultFile {
  private readonly fd: number;

  constructor(path: string) {
    try {
      this.fd = openSync(path, 'a');
    } catch (error) {
      throw new InputError(`cannot write ${path}: ${(error as Error).message}`);
    }
  }

  write(line: string): void {
    writeSync(this.fd, line);
  }

  close(): void {
    closeSync(this.fd);
  }
}
