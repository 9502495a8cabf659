import { resolve } from 'node:path';
import { createRedisJournalStore } from '@switchyard/queue';
import { createFileJournalStore, type JournalStore } from 'switchyard/journal';
import { type CommandLine, type OptionSpec, stringOption } from './command-line.js';
import { UsageError } from './errors.js';

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

/** The options the operator commands (`approvals`, `in-doubt`) share. */
export const JOURNAL_COMMAND_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  out: {
    type: 'string',
    short: 'o',
    value: '<file>',
    description: "the batch's --out (its journal is <out>.journal)",
  },
  journal: {
    type: 'string',
    value: '<dir | redis-url>',
    description: 'the run journals, when not beside --out',
  },
  key: {
    type: 'string',
    value: '<key>',
    description: 'the call as listed (its place, tool and arguments), when its id is not unique',
  },
  by: { type: 'string', value: '<name>', description: 'who decides (default $USER)' },
  json: { type: 'boolean', description: 'list as JSON lines' },
};
