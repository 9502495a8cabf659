import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { JournalBusyError } from '../errors.js';

/**
 * The lock file of a run's journal: made with `wx` (exclusive create) and holding `pid host
 * token`. A lock left by a process that died (same host, no such pid) is taken over; one held by a
 * live process, or written on another host, refuses the run.
 */
export class RunFileLock {
  readonly #path: string;
  readonly #content: string;

  private constructor(path: string, content: string) {
    this.#path = path;
    this.#content = content;
  }

  /** @throws JournalBusyError when a live process holds the run. */
  static take(path: string, runId: string): RunFileLock {
    const content = `${process.pid} ${hostname()} ${randomBytes(6).toString('hex')}`;
    for (let tries = 0; tries < 2; tries += 1) {
      try {
        writeFileSync(path, content, { flag: 'wx' });
        return new RunFileLock(path, content);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(path);
      if (holder !== undefined && isLive(holder)) {
        throw new JournalBusyError(runId, `pid ${holder.pid} on ${holder.host}`);
      }
      // Its holder died without releasing it (a kill -9): the run is free.
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    throw new JournalBusyError(runId);
  }

  /** Removes the lock if it is still this one's. */
  release(): void {
    try {
      if (readFileSync(this.#path, 'utf8') === this.#content) unlinkSync(this.#path);
    } catch {
      // Already gone.
    }
  }
}

function readHolder(path: string): { pid: number; host: string } | undefined {
  try {
    const [pid, host] = readFileSync(path, 'utf8').split(' ');
    const number = Number(pid);
    return Number.isInteger(number) && host !== undefined ? { pid: number, host } : undefined;
  } catch {
    return undefined;
  }
}

/** A holder on another host cannot be checked: it counts as live. */
function isLive(holder: { pid: number; host: string }): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
