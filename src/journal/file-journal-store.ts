import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkOneOf, checkString, optionsObject } from '../option-checks.js';
import { GroupCommitFile } from './group-commit-file.js';
import { claimOf, type JournalRecord, parseRecord, serializeRecord } from './journal-record.js';
import type { JournalStore, StoredRun } from './journal-store.js';
import { RunFileLock } from './run-file-lock.js';

/** Options of `createFileJournalStore`. */
export interface FileJournalStoreOptions {
  /** Where the runs' files go (made when missing). */
  readonly directory: string;
  /**
   * What a record has survived once its append resolves. `process` (the default): it is in the
   * operating system, so a crash or `kill -9` of the process loses nothing; a power cut may lose
   * the last records. `machine`: it is on disk (`fdatasync`, one per group of records): nothing is
   * lost even then, at the cost of a disk flush on the path of each group of calls.
   */
  readonly durability?: 'process' | 'machine';
}

const FACTORY = 'createFileJournalStore';
const SUFFIX = '.jsonl';

/**
 * The embedded journal store: one append-only JSON-lines file per run in `directory`, written
 * with group commit (see `durability`), and a lock file beside it while a process has the run
 * open. No service to run. Chosen over an embedded database (`node:sqlite`) by measurement: see
 * `bench/journal-cost.bench.ts` and docs/durability.md.
 *
 * @throws InvalidOptionError for a missing directory or an unknown durability.
 * @example
 * const store = createFileJournalStore({ directory: '.switchyard/journal' });
 * const journal = await openRunJournal({ store, runId: 'order-42' });
 */
export function createFileJournalStore(options: FileJournalStoreOptions): JournalStore {
  const settings = optionsObject(FACTORY, options);
  const directory = checkString(FACTORY, 'directory', settings.directory, { nonEmpty: true });
  const durability = checkOneOf(FACTORY, 'durability', settings.durability ?? 'process', [
    'process',
    'machine',
  ] as const);
  const open = new Set<StoredRun>();

  function pathOf(runId: string): string {
    return join(directory, `${encodeURIComponent(runId)}${SUFFIX}`);
  }

  return {
    async open(runId) {
      mkdirSync(directory, { recursive: true });
      const path = pathOf(runId);
      const lock = RunFileLock.take(`${path}.lock`, runId);
      try {
        const run = openRun(runId, path, durability === 'machine', lock, () => open.delete(run));
        open.add(run);
        return run;
      } catch (error) {
        lock.release();
        throw error;
      }
    },
    async read(runId) {
      try {
        return readRecords(readFileSync(pathOf(runId), 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async list() {
      let names: string[];
      try {
        names = readdirSync(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return names
        .filter((name) => name.endsWith(SUFFIX))
        .map((name) => decodeURIComponent(name.slice(0, -SUFFIX.length)))
        .sort();
    },
    async close() {
      await Promise.all([...open].map((run) => run.close()));
    },
  };
}

function openRun(
  runId: string,
  path: string,
  flush: boolean,
  lock: RunFileLock,
  onClose: () => void,
): StoredRun {
  const fd = openSync(path, 'a+');
  let records: JournalRecord[];
  try {
    const text = readFileSync(fd, 'utf8');
    // A line cut off by a crash is dropped, so the next append starts on a line of its own.
    const whole = text.lastIndexOf('\n') + 1;
    if (whole < text.length) ftruncateSync(fd, Buffer.byteLength(text.slice(0, whole)));
    records = readRecords(text.slice(0, whole));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const file = new GroupCommitFile(fd, flush);
  /** What the run's records claimed: one writer per run (the lock), so the check is exact here. */
  const claimed = new Set<string>();
  for (const record of records) {
    const claim = claimOf(record);
    if (claim !== undefined) claimed.add(claim);
  }
  let closing: Promise<void> | undefined;
  const refused = Promise.resolve(false);
  return {
    runId,
    records,
    append(record) {
      const claim = claimOf(record);
      if (claim !== undefined) {
        if (claimed.has(claim)) return refused;
        claimed.add(claim);
      }
      return file.append(serializeRecord(record));
    },
    close() {
      closing ??= file.close().finally(() => {
        lock.release();
        onClose();
      });
      return closing;
    },
  };
}

function readRecords(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    const record = parseRecord(line);
    if (record !== undefined) records.push(record);
  }
  return records;
}
