/**
 * A journal store over `node:sqlite`, written for `journal-cost.bench.ts` only: the embedded
 * database the file store was measured against. One database file; a group of records appended in
 * one turn of the microtask queue is one transaction; a claim is a row in a table with a unique
 * key, so `INSERT OR IGNORE` says whether it was the first. WAL mode; `synchronous` NORMAL
 * survives a crash of the process (like the file store's `process` durability), FULL a crash of
 * the machine (like `machine`).
 */
import { DatabaseSync } from 'node:sqlite';
import {
  claimOf,
  type JournalRecord,
  type JournalStore,
  parseRecord,
  type StoredRun,
  serializeRecord,
} from 'switchyard/journal';

export function createSqliteJournalStore(
  path: string,
  synchronous: 'NORMAL' | 'FULL',
): JournalStore {
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=${synchronous};
    CREATE TABLE IF NOT EXISTS records (run TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT, line TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS records_run ON records (run, seq);
    CREATE TABLE IF NOT EXISTS claims (run TEXT NOT NULL, claim TEXT NOT NULL, PRIMARY KEY (run, claim)) WITHOUT ROWID;`);
  const insert = db.prepare('INSERT INTO records (run, line) VALUES (?, ?)');
  const claim = db.prepare('INSERT OR IGNORE INTO claims (run, claim) VALUES (?, ?)');
  const select = db.prepare('SELECT line FROM records WHERE run = ? ORDER BY seq');
  let group: Array<{ runId: string; record: JournalRecord; settle: (claimed: boolean) => void }> =
    [];

  function commit(): void {
    const pending = group;
    group = [];
    db.exec('BEGIN');
    const outcomes = pending.map(({ runId, record }) => {
      const name = claimOf(record);
      if (name !== undefined && claim.run(runId, name).changes === 0) return false;
      insert.run(runId, serializeRecord(record));
      return true;
    });
    db.exec('COMMIT');
    for (const [index, entry] of pending.entries()) entry.settle(outcomes[index]!);
  }

  function read(runId: string): JournalRecord[] {
    return select.all(runId).flatMap((row) => parseRecord((row as { line: string }).line) ?? []);
  }

  return {
    async open(runId): Promise<StoredRun> {
      return {
        runId,
        records: read(runId),
        append(record) {
          if (group.length === 0) queueMicrotask(commit);
          return new Promise((settle) => group.push({ runId, record, settle }));
        },
        async close() {},
      };
    },
    async read(runId) {
      const records = read(runId);
      return records.length === 0 ? undefined : records;
    },
    async list() {
      return (db.prepare('SELECT DISTINCT run FROM records').all() as { run: string }[]).map(
        (row) => row.run,
      );
    },
    async close() {
      db.close();
    },
  };
}
