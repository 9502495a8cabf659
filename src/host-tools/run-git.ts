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
 * Runs git with hardened configuration and a clean environment, capturing at most `maxBytes` of
 * each stream. A timeout or an aborted `signal` kills git's whole process group. Rejects only when
 * git cannot be started.
 */
export function runGit(options: RunGitOptions): Promise<GitOutput> {
  return runProgram({
    program: 'git',
    args: [...HARDENING, ...options.args],
    cwd: options.cwd,
    env: gitEnvironment(options.scope),
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
