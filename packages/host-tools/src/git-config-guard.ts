import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { RootScope } from './root-scope.js';

/** One line of `git config -z --show-scope --show-origin --list`. */
export interface ConfigEntry {
  readonly scope: string;
  /** `file:<path>` (relative to the directory git ran in), `command line:`, … */
  readonly origin: string;
  /** Lower-cased section and name; a subsection keeps its case. */
  readonly key: string;
  /** Undefined for a key written without `=` (a boolean true). */
  readonly value: string | undefined;
}

/** Reads the NUL-separated listing: scope, origin, then `key\nvalue` (or `key` alone). */
export function parseConfigListing(text: string): ConfigEntry[] {
  const fields = text.split('\0');
  const entries: ConfigEntry[] = [];
  for (let index = 0; index + 2 < fields.length; index += 3) {
    const pair = fields[index + 2]!;
    const newline = pair.indexOf('\n');
    entries.push({
      scope: fields[index]!,
      origin: fields[index + 1]!,
      key: newline === -1 ? pair : pair.slice(0, newline),
      value: newline === -1 ? undefined : pair.slice(newline + 1),
    });
  }
  return entries;
}

// Keys whose value is a path git reads (or, for core.worktree, works in). Each must stay inside
// the root: blame.ignoreRevsFile, for one, cannot be emptied by `-c` (git sorts the list), and
// its error shows the file's first line.
const PATH_KEYS = new Set([
  'blame.ignorerevsfile',
  'core.attributesfile',
  'core.excludesfile',
  'core.worktree',
  'commit.template',
  'diff.orderfile',
  'gpg.ssh.allowedsignersfile',
  'gpg.ssh.revocationfile',
  'init.templatedir',
  'mailmap.file',
]);

// Keys under a name the repository chooses (`filter.<driver>.clean`) that run a program: each
// is emptied, and a filter is no longer required (git then passes content through unchanged).
const PROGRAM_KEYS: Readonly<Record<string, readonly string[]>> = {
  filter: ['clean', 'smudge', 'process'],
  diff: ['command', 'textconv'],
  merge: ['driver'],
};

/** The file a `file:` origin names, real when it exists. */
function originFile(origin: string, directory: string): string | undefined {
  if (!origin.startsWith('file:')) return undefined;
  return real(resolve(directory, origin.slice('file:'.length)));
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Where git would look for a path value, or undefined when it names another user's home or git's prefix. */
function pathValue(entry: ConfigEntry, toplevel: string, home: string): string | undefined {
  const value = entry.value ?? '';
  if (value.startsWith('~/')) return resolve(home, value.slice(2));
  if (value.startsWith('~') || value.startsWith('%(prefix)')) return undefined;
  if (isAbsolute(value)) return real(value);
  // core.worktree is relative to the git directory, the others to the top of the work tree.
  const base =
    entry.key === 'core.worktree' ? dirname(originFile(entry.origin, toplevel) ?? '.') : toplevel;
  return real(resolve(base, value));
}

/** The repository configuration's verdict: `-c` overrides to add, or why git must not run there. */
export type ConfigVerdict =
  | { readonly ok: true; readonly overrides: readonly string[] }
  | { readonly ok: false; readonly reason: string; readonly path: string };

/**
 * Checks what a repository's own configuration (and every file it includes) asks of git, as
 * listed from `toplevel`: a config file outside the root, or a path key pointing outside it,
 * refuses the repository; filter, diff and merge drivers it names are neutralised by overrides.
 */
export function checkRepositoryConfig(
  entries: readonly ConfigEntry[],
  options: { readonly scope: RootScope; readonly toplevel: string; readonly home: string },
): ConfigVerdict {
  const { scope, toplevel } = options;
  const overrides: string[] = [];
  const neutralised = new Set<string>();
  for (const entry of entries) {
    if (entry.scope === 'command') continue;
    const file = originFile(entry.origin, toplevel);
    if (file !== undefined && !scope.contains(file)) {
      return { ok: false, reason: `it reads configuration from ${file}`, path: file };
    }
    if (PATH_KEYS.has(entry.key)) {
      const path = pathValue(entry, toplevel, options.home);
      if (path === undefined || !scope.contains(path)) {
        const shown = path ?? entry.value ?? '';
        return { ok: false, reason: `its ${entry.key} points at ${shown}`, path: shown };
      }
    }
    const section = entry.key.slice(0, entry.key.indexOf('.'));
    const name = entry.key.slice(section.length + 1, entry.key.lastIndexOf('.'));
    const keys = Object.hasOwn(PROGRAM_KEYS, section) ? PROGRAM_KEYS[section] : undefined;
    if (keys === undefined || name === '' || neutralised.has(`${section}.${name}`)) continue;
    neutralised.add(`${section}.${name}`);
    for (const key of keys) overrides.push('-c', `${section}.${name}.${key}=`);
    if (section === 'filter') overrides.push('-c', `filter.${name}.required=false`);
  }
  return { ok: true, overrides };
}
