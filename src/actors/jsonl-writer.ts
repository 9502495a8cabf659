import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, write } from 'node:fs';
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
 * The text a group collects before it is written without waiting for the end of the turn, in
 * UTF-16 code units. It bounds the memory of a long burst and what a crash could lose of it, and
 * keeps each write's text below V8's large-object size (128 KiB), past which joining and writing
 * it cost about three times more per line than in 64 KiB groups.
 */
export const MAX_CHARS_PER_WRITE = 64 * 1024;

/** Lines appended in the current turn and not yet handed to the actor, with their shared promise. */
interface LineGroup {
  /** Each with its newline. */
  readonly lines: string[];
  /** Length of the lines' text. */
  chars: number;
  readonly written: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function openGroup(): LineGroup {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const written = new Promise<void>((resolveWritten, rejectWritten) => {
    resolve = resolveWritten;
    reject = rejectWritten;
  });
  return { lines: [], chars: 0, written, resolve, reject };
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

/**
 * Writes all of `text`, however many system calls it takes. The write runs on libuv's thread pool,
 * so copying a group into the kernel costs the event loop nothing; the actor waits for it before
 * the next group, which keeps groups whole and in order.
 */
async function writeWhole(fd: number, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; ) {
    offset += await new Promise<number>((resolve, reject) =>
      write(fd, bytes, offset, bytes.length - offset, null, (error, written) =>
        error ? reject(error) : resolve(written),
      ),
    );
  }
}

/**
 * Starts a single-writer actor over a JSONL file: many callers append at once, the actor writes
 * their lines whole and in order. Group commit: the lines appended during one turn of the event
 * loop go out together, in one write at its end (or each `MAX_CHARS_PER_WRITE` of text), and their
 * promises resolve once that write is done. So a burst of appends costs one system call, and so
 * do appends made one after another by callers that do not wait for them (the audit layer). A
 * torn last line from an earlier crash is removed when the file is opened.
 */
export function createJsonlWriter(path: string): JsonlWriter {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  repairTail(fd);
  // The actor owns the file: each group it receives becomes one write, in the order handed over.
  const actor: ActorRef<readonly string[], void> = createActor<null, readonly string[], void>({
    name: `jsonl:${path}`,
    init: () => null,
    receive: (_state, lines) => writeWhole(fd, lines.join('')),
  });
  /** The lines of the current turn not yet handed to the actor; undefined when there are none. */
  let group: LineGroup | undefined;

  /** Hands the current group to the actor. Scheduled once per group, at the end of its turn. */
  function handOff(): void {
    const current = group;
    if (current === undefined) return;
    group = undefined;
    actor.ask(current.lines).then(current.resolve, current.reject);
  }

  function appendLine(line: string): Promise<void> {
    let current = group;
    if (current === undefined) {
      current = openGroup();
      group = current;
      setImmediate(handOff);
    }
    // With its newline: joined as they are, the lines make the whole text in one copy, where
    // `${lines.join('\n')}\n` would make it twice (the kernel call flattens the concatenation).
    current.lines.push(`${line}\n`);
    current.chars += line.length + 1;
    if (current.chars >= MAX_CHARS_PER_WRITE) handOff();
    return current.written;
  }

  return {
    path,
    append(record) {
      return appendLine(JSON.stringify(record));
    },
    appendLine,
    async close() {
      handOff();
      await actor.stop();
      closeSync(fd);
    },
  };
}
