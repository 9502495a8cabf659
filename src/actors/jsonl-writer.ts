import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { type ActorRef, createActor } from './actor.js';

/** Appends JSON lines to one file from one place. */
export interface JsonlWriter {
  /** Resolves once the line is written (in order, whole). */
  append(record: unknown): Promise<void>;
  /** Appends a line already serialized (without its newline). */
  appendLine(line: string): Promise<void>;
  /** Writes what is queued, then closes the file. */
  close(): Promise<void>;
  readonly path: string;
}

/**
 * Drops a trailing partial line (a crash in the middle of a write) so appends start on a line
 * boundary and the rest of the file stays readable.
 */
function repairTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const window = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  // Scan backwards for the last newline; everything after it is a torn line.
  while (end > 0) {
    const start = Math.max(0, end - window.length);
    const length = end - start;
    readSync(fd, window, 0, length, start);
    const last = window.subarray(0, length).lastIndexOf(0x0a);
    if (last !== -1) {
      const keep = start + last + 1;
      if (keep !== size) ftruncateSync(fd, keep);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

/** Writes all of `text`, however many system calls it takes. */
function writeWhole(fd: number, text: string): void {
  // The string goes to the kernel as it is; only a short write needs its bytes, to resume from.
  const written = writeSync(fd, text);
  const length = Buffer.byteLength(text);
  if (written === length) return;
  const bytes = Buffer.from(text);
  for (let offset = written; offset < length; ) offset += writeSync(fd, bytes, offset);
}

/**
 * Starts a single-writer actor over a JSONL file: many callers append at once, the actor writes
 * their lines whole and in order, a burst of lines in one `write`. A torn last line from an
 * earlier crash is removed when the file is opened.
 */
export function createJsonlWriter(path: string): JsonlWriter {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  repairTail(fd);
  const actor: ActorRef<string, void> = createActor<null, string, void>({
    name: `jsonl:${path}`,
    init: () => null,
    receive: (_state, line) => {
      writeWhole(fd, line);
    },
    receiveBatch: (_state, lines) => {
      writeWhole(fd, lines.join(''));
      return lines.map(() => undefined);
    },
  });
  return {
    path,
    append(record) {
      return actor.ask(`${JSON.stringify(record)}\n`);
    },
    appendLine(line) {
      return actor.ask(`${line}\n`);
    },
    async close() {
      await actor.stop();
      closeSync(fd);
    },
  };
}
