import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, write } from 'node:fs';
import { dirname } from 'node:path';
import { type ActorRef, createActor } from './actor.js';

/** Appends JSON lines to one file from one place. */
export interface JsonlWriter {
  /** Resolves once the line is written (in order, whole). */
  append(record: unknown): Promise<void>;
  /** Appends a line already serialized (without its newline). */
  appendLine(line: string): Promise<void>;
  /**
   * Appends a line already encoded as UTF-8 (without its newline). The bytes are copied at once,
   * so the caller may reuse its buffer.
   */
  appendBytes(line: Uint8Array): Promise<void>;
  /** Writes what is queued, then closes the file. */
  close(): Promise<void>;
  readonly path: string;
}

/**
 * The bytes a group collects before it is written without waiting for the end of the turn (for
 * ASCII lines, characters). It bounds the memory of a long burst and what a crash could lose of
 * it beyond the writes in flight. Each group is one buffer, reused by no one, so a line is copied
 * once into it, and once more each time the group doubles.
 *
 * Measured with the audit layer's receipts (~1.4 KB lines, one per call, 500 calls a burst): a
 * group costs the event loop tens of µs whatever its size (its buffer, a system call, the
 * promises that report it), so 64 KiB groups cost ~0.7 µs per receipt more than 1 MiB ones.
 */
export const MAX_CHARS_PER_WRITE = 1024 * 1024;

/**
 * A group's first buffer. Most groups are one turn's few lines: they get this much, and a burst's
 * group doubles it as it fills, up to `MAX_CHARS_PER_WRITE` (and the group after it starts there).
 */
const FIRST_GROUP_BYTES = 64 * 1024;

/** Lines appended in the current turn and not yet handed to the actor, with their shared promise. */
interface LineGroup {
  /** The lines' UTF-8 bytes, each with its newline, in `bytes[0, used)`. */
  bytes: Buffer;
  used: number;
  readonly written: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function openGroup(capacity: number): LineGroup {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const written = new Promise<void>((resolveWritten, rejectWritten) => {
    resolve = resolveWritten;
    reject = rejectWritten;
  });
  return { bytes: Buffer.allocUnsafe(capacity), used: 0, written, resolve, reject };
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
 * Writes all of `bytes`, however many system calls it takes. The write runs on libuv's thread pool,
 * so copying a group into the kernel costs the event loop nothing; the actor waits for it before
 * the next group, which keeps groups whole and in order.
 */
async function writeWhole(fd: number, bytes: Uint8Array): Promise<void> {
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
 * promises resolve once that write is done; while a write is in flight, the lines of the turns
 * that follow join one group, written when it completes. So a burst of appends costs one system
 * call, and so do appends made one after another by callers that do not wait for them (the audit
 * layer). A torn last line from an earlier crash is removed when the file is opened.
 */
export function createJsonlWriter(path: string): JsonlWriter {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  repairTail(fd);
  // The actor owns the file: each group it receives becomes one write, in the order handed over.
  const actor: ActorRef<Uint8Array, void> = createActor<null, Uint8Array, void>({
    name: `jsonl:${path}`,
    init: () => null,
    receive: (_state, bytes) => writeWhole(fd, bytes),
  });
  /** The lines not yet handed to the actor; undefined when there are none. */
  let group: LineGroup | undefined;
  /** Groups handed to the actor and not yet written. */
  let writing = 0;
  /** The current group's turn has ended while a write was in flight. */
  let due = false;
  /**
   * The first buffer of the next group: the size the last group grew to when it outgrew the
   * first one (a burst goes on: no doubling and copying again), else `FIRST_GROUP_BYTES`.
   */
  let nextGroupBytes = FIRST_GROUP_BYTES;

  /** Hands the current group to the actor. */
  function handOff(): void {
    const current = group;
    if (current === undefined) return;
    group = undefined;
    due = false;
    nextGroupBytes =
      current.used > FIRST_GROUP_BYTES
        ? Math.min(MAX_CHARS_PER_WRITE, current.bytes.length)
        : FIRST_GROUP_BYTES;
    writing += 1;
    actor.ask(current.bytes.subarray(0, current.used)).then(
      () => {
        wrote();
        current.resolve();
      },
      (error: unknown) => {
        wrote();
        current.reject(error);
      },
    );
  }

  /**
   * At the end of a group's turn: it goes out now, unless a write is in flight. Then it keeps
   * collecting the lines of the turns that follow and goes out as that write completes, when it
   * would have started anyway: lines that come one per turn (back-to-back calls) share writes
   * instead of queueing one each, at no cost in latency.
   */
  function turnEnded(): void {
    if (group === undefined) return;
    if (writing > 0) due = true;
    else handOff();
  }

  function wrote(): void {
    writing -= 1;
    if (writing === 0 && due) handOff();
  }

  /**
   * The group to take a line of `size` bytes (its newline included): the current one, grown if it
   * lacks room and is below `MAX_CHARS_PER_WRITE`; else a new one (the current one, if any, goes
   * out first, so lines stay in order).
   */
  function groupFor(size: number): LineGroup {
    let current = group;
    if (current !== undefined) {
      const room = current.bytes.length - current.used;
      if (room >= size) return current;
      const needed = current.used + size;
      if (needed <= MAX_CHARS_PER_WRITE) {
        const grown = Buffer.allocUnsafe(
          Math.min(MAX_CHARS_PER_WRITE, Math.max(needed, 2 * current.bytes.length)),
        );
        current.bytes.copy(grown, 0, 0, current.used);
        current.bytes = grown;
        return current;
      }
      handOff();
    }
    current = openGroup(Math.max(nextGroupBytes, size));
    group = current;
    setImmediate(turnEnded);
    return current;
  }

  /** After a line: a full group goes out without waiting for the end of the turn. */
  function added(current: LineGroup): Promise<void> {
    if (current.used >= MAX_CHARS_PER_WRITE) handOff();
    return current.written;
  }

  function appendLine(line: string): Promise<void> {
    // At most 3 bytes per UTF-16 unit: counted exactly only when that bound does not fit.
    const room = group === undefined ? 0 : group.bytes.length - group.used;
    const current = groupFor(line.length * 3 + 1 <= room ? room : Buffer.byteLength(line) + 1);
    current.used += current.bytes.write(line, current.used);
    current.bytes[current.used++] = 0x0a;
    return added(current);
  }

  function appendBytes(line: Uint8Array): Promise<void> {
    const current = groupFor(line.length + 1);
    current.bytes.set(line, current.used);
    current.used += line.length;
    current.bytes[current.used++] = 0x0a;
    return added(current);
  }

  return {
    path,
    append(record) {
      return appendLine(JSON.stringify(record));
    },
    appendLine,
    appendBytes,
    async close() {
      handOff();
      await actor.stop();
      closeSync(fd);
    },
  };
}
