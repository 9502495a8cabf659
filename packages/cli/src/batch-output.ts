import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { InputError } from './errors.js';
import { type TaskOutcome, waitsForOperator } from './task-outcome.js';

/** What an output file says of its tasks. */
export interface EarlierResults {
  /** Tasks with a final result line: skipped when the batch runs again. */
  readonly finished: Set<string>;
  /**
   * Tasks whose lines say they wait (for approvals, or an operator): how many such lines each
   * has. They run again (their journal goes on with them) until a line says they finished.
   */
  readonly waiting: Map<string, number>;
}

/**
 * What an output file already holds: the tasks it has a final result for, and those it has lines
 * of waiting for. A task stopped by Ctrl-C is never written, so it is in neither. A last line cut
 * off by a crash is removed from the file, so the next line starts clean.
 *
 * @throws InputError when the file exists but cannot be read or written.
 */
export function earlierResults(path: string): EarlierResults {
  const finished = new Set<string>();
  const waiting = new Map<string, number>();
  if (!existsSync(path)) return { finished, waiting };
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
      if (typeof record.id !== 'string' || typeof record.status !== 'string') continue;
      if (waitsForOperator({ status: record.status as TaskOutcome['status'] })) {
        waiting.set(record.id, (waiting.get(record.id) ?? 0) + 1);
      } else finished.add(record.id);
    } catch {
      // not a result line: ignored
    }
  }
  return { finished, waiting };
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
