import { resolve } from 'node:path';
import { createRedisJournalStore } from '@switchyard/queue';
import { createFileJournalStore, type JournalStore } from 'switchyard/journal';
import { type CommandLine, stringOption } from './command-line.js';
import { UsageError } from './exit-codes.js';

/**
 * The journal store a command line names: `--journal redis://…` (the Redis store, shared by every
 * process and machine that reaches it), `--journal <dir>`, or `<out>.journal` beside `--out`.
 * Undefined when it names none.
 */
export function journalStoreOf(line: CommandLine, cwd: string): JournalStore | undefined {
  const journal = stringOption(line, 'journal');
  if (journal !== undefined && /^rediss?:\/\//.test(journal)) {
    return createRedisJournalStore({ connection: journal });
  }
  if (journal !== undefined) return createFileJournalStore({ directory: resolve(cwd, journal) });
  const out = stringOption(line, 'out');
  if (out === undefined) return undefined;
  return createFileJournalStore({ directory: `${resolve(cwd, out)}.journal` });
}

/**
 * The store of a command that only reads or decides (`approvals`, `in-doubt`).
 *
 * @throws UsageError when the command line names no journal.
 */
export function requiredJournalStore(
  line: CommandLine,
  cwd: string,
  command: string,
): JournalStore {
  const store = journalStoreOf(line, cwd);
  if (store === undefined) {
    throw new UsageError(
      `switchyard ${command} needs --journal <dir | redis-url> or the batch's --out <file>`,
    );
  }
  return store;
}
