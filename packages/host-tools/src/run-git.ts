import { dirname } from 'node:path';
import type { RootScope } from './root-scope.js';
import { type ProgramOutput, runProgram } from './run-program.js';

/** What one git run printed, capped. */
export type GitOutput = ProgramOutput;

/** Options of one git run. */
export interface RunGitOptions {
  readonly scope: RootScope;
  /** Real working directory, already checked inside the scope. */
  readonly cwd: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  /** Empty every filter driver the repository configures first (costs one more git run). Default true. */
  readonly neutraliseFilters?: boolean;
}

// Configuration a repository could use to run programs or leave the root is switched off.
const HARDENING = [
  '--no-pager',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.sshCommand=false',
  '-c',
  'diff.external=',
  '-c',
  'protocol.allow=never',
  '-c',
  'credential.helper=',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'tag.gpgSign=false',
];

/** The environment of every git run: no host secrets, no user or system config, no prompts. */
function gitEnvironment(scope: RootScope): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scope.root,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // Repository discovery stops at the root: a repository above it is never found.
    GIT_CEILING_DIRECTORIES: dirname(scope.root),
  };
}

/**
 * `-c` overrides that empty every filter driver the repository's config names: a hostile
 * `.git/config` plus `.gitattributes` would otherwise make even `git status` run a program.
 */
async function filterOverrides(options: RunGitOptions): Promise<string[]> {
  const listed = await runProgram({
    program: 'git',
    args: [...HARDENING, 'config', '--name-only', '--get-regexp', '^filter\\.'],
    cwd: options.cwd,
    env: gitEnvironment(options.scope),
    timeoutMs: options.timeoutMs,
    maxBytes: 1024 * 1024,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const drivers = new Set<string>();
  for (const line of listed.stdout.split('\n')) {
    const name = line.trim();
    // `filter.<driver>.<key>`: the driver is everything between the first and the last dot.
    const last = name.lastIndexOf('.');
    if (name.startsWith('filter.') && last > 'filter.'.length) drivers.add(name.slice(7, last));
  }
  return [...drivers].flatMap((driver) => [
    ...['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${driver}.${key}=`]),
    '-c',
    `filter.${driver}.required=false`,
  ]);
}

/**
 * Runs git with hardened configuration (no hooks, fsmonitor, external diff, filter drivers,
 * signing programs, credential helpers or remote protocols) and a clean environment, capturing at
 * most `maxBytes` of each stream. A timeout or an aborted `signal` kills git's whole process group.
 * Rejects only when git cannot be started.
 */
export async function runGit(options: RunGitOptions): Promise<GitOutput> {
  const overrides = options.neutraliseFilters === false ? [] : await filterOverrides(options);
  return runProgram({
    program: 'git',
    args: [...HARDENING, ...overrides, ...options.args],
    cwd: options.cwd,
    env: gitEnvironment(options.scope),
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
