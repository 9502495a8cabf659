import { closeSync, fdatasync, writeSync } from 'node:fs';

/** Lines appended and not yet written, and the one promise they all wait on. */
interface Group {
  readonly lines: string[];
  readonly written: Promise<true>;
  readonly resolve: (value: true) => void;
  readonly reject: (error: unknown) => void;
}

function openGroup(): Group {
  let resolve!: (value: true) => void;
  let reject!: (error: unknown) => void;
  const written = new Promise<true>((resolveWritten, rejectWritten) => {
    resolve = resolveWritten;
    reject = rejectWritten;
  });
  return { lines: [], written, resolve, reject };
}

/**
 * Appends lines to an open file with group commit: the lines appended in one run of synchronous
 * code (one turn of the microtask queue) are written with one `write`, and share one promise that
 * resolves once they are. With `flush`, a group also waits for an `fdatasync` of the file; while
 * one is in flight the groups that follow are written and then share the next one, so a burst of
 * appends costs one flush, never one per line.
 *
 * The write itself is synchronous: a record is in the operating system before anything that
 * waits for it goes on, so a process killed at any moment leaves every record it waited for.
 */
export class GroupCommitFile {
  readonly #fd: number;
  readonly #flush: boolean;
  /** The group collecting lines in this turn; null when none is open. */
  #open: Group | null = null;
  /** Written groups that wait for a flush to start (`#flush` only). */
  #unflushed: Group[] = [];
  /** An `fdatasync` is in flight. */
  #flushing = false;
  /** Settles when nothing is left to write or flush. */
  #idle: (() => void) | null = null;
  #closed = false;

  constructor(fd: number, flush: boolean) {
    this.#fd = fd;
    this.#flush = flush;
  }

  /** Appends `line` (without its newline); resolves once it is written (and flushed). */
  append(line: string): Promise<true> {
    if (this.#closed) return Promise.reject(new Error('the journal file is closed'));
    let group = this.#open;
    if (group === null) {
      group = openGroup();
      this.#open = group;
      queueMicrotask(() => this.#write());
    }
    group.lines.push(line);
    return group.written;
  }

  #write(): void {
    const group = this.#open;
    if (group === null) return;
    this.#open = null;
    try {
      writeWhole(this.#fd, Buffer.from(`${group.lines.join('\n')}\n`));
    } catch (error) {
      group.reject(error);
      this.#settleIfIdle();
      return;
    }
    if (!this.#flush) {
      group.resolve(true);
      this.#settleIfIdle();
      return;
    }
    this.#unflushed.push(group);
    if (!this.#flushing) this.#startFlush();
  }

  #startFlush(): void {
    const groups = this.#unflushed;
    this.#unflushed = [];
    this.#flushing = true;
    fdatasync(this.#fd, (error) => {
      this.#flushing = false;
      for (const group of groups) {
        if (error === null) group.resolve(true);
        else group.reject(error);
      }
      if (this.#unflushed.length > 0) this.#startFlush();
      else this.#settleIfIdle();
    });
  }

  #settleIfIdle(): void {
    if (this.#open !== null || this.#flushing || this.#unflushed.length > 0) return;
    this.#idle?.();
    this.#idle = null;
  }

  /** Waits for every append, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#open !== null || this.#flushing || this.#unflushed.length > 0) {
      await new Promise<void>((resolve) => {
        this.#idle = resolve;
      });
    }
    closeSync(this.#fd);
  }
}

function writeWhole(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) {
    offset += writeSync(fd, bytes, offset, bytes.length - offset);
  }
}
