import type { JournalRecord } from './journal-record.js';

/**
 * Where run journals live. Two are built in: `createFileJournalStore` (the default: files in a
 * directory, no service) and the Redis store of `@switchyard/queue` (several processes or
 * machines). A store keeps each run's records in the order appended and makes each append
 * durable before it resolves.
 */
export interface JournalStore {
  /**
   * Opens a run to append to it, with the records it holds (none for a new run). A store may
   * refuse a run another live process has open (`JournalBusyError`): one writer per run.
   */
  open(runId: string): Promise<StoredRun>;
  /** A run's records, read without opening it; undefined when the store has no such run. */
  read(runId: string): Promise<readonly JournalRecord[] | undefined>;
  /** The ids of the runs the store holds. */
  list(): Promise<readonly string[]>;
  /** Releases what the store holds open (runs still open are closed). */
  close(): Promise<void>;
}

/** A run opened for appending. */
export interface StoredRun {
  readonly runId: string;
  /** The records an earlier run (or process) left, in the order they were appended. */
  readonly records: readonly JournalRecord[];
  /**
   * Appends a record and resolves once it is durable (to the store's promise: see each store).
   * Records appended together (in one turn of the event loop, or while a write is in flight) are
   * written together: one write and, where the store flushes, one flush for the group.
   *
   * A record that claims something (`claimOf`: an intent claims its call's attempt, a decision its
   * approval, a turn its iteration) is appended only if no record of the run claimed it before,
   * atomically with that check even across processes; the promise says whether it was appended.
   * Any other record (an outcome) is always appended.
   */
  append(record: JournalRecord): Promise<boolean>;
  /** Waits for every append, then releases the run for other processes. */
  close(): Promise<void>;
}
