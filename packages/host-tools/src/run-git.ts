import { dirname } from 'node:path';
import {
  type ConfigVerdict,
  checkRepositoryConfig,
  parseConfigListing,
} from './git-config-guard.js';
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
  /** The repository's own overrides (`hardenRepository`), after the fixed ones. Default none. */
  readonly overrides?: readonly string[];
}

// Configuration a repository could use to run a program, read outside the root or leave a
// process behind is switched off; command-line configuration outranks the repository's, and git
// passes it on to the git processes it starts.
const HARDENING = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.sshCommand', 'false'],
  ['core.askPass', ''],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['diff.external', ''],
  ['protocol.allow', 'never'],
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  // Signatures are never verified, and a verifier would be no program of the repository's.
  ['log.showSignature', 'false'],
  ['gpg.format', 'openpgp'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', 'false'],
  // A nested repository (a submodule or any gitlink) has filters of its own: never enter one.
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['diff.submodule', 'short'],
  ['status.submoduleSummary', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  // No background maintenance that outlives the call.
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // A bare repository is used only where one is named, never found inside a work tree.
  ['safe.bareRepository', 'explicit'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

/** The fixed arguments every hardened git run starts with. */
export const GIT_HARDENING: readonly string[] = ['--no-pager', ...HARDENING];

/** The variables every hardened git run gets: no user or system config, no prompts, no discovery above the root. */
export function gitVariables(scope: RootScope): NodeJS.ProcessEnv {
  return {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // Repository discovery stops at the root: a repository above it is never found.
    GIT_CEILING_DIRECTORIES: dirname(scope.root),
  };
}

/** The environment of every git tool run: no host secrets besides `PATH`. */
function gitEnvironment(scope: RootScope): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scope.root,
    LC_ALL: 'C',
    ...gitVariables(scope),
  };
}

/**
 * Reads the configuration git would use in the work tree `toplevel` (the repository's files and
 * every file they include) and checks it (`checkRepositoryConfig`). Throws a tool error when git
 * cannot read it.
 */
export async function hardenRepository(options: {
  readonly scope: RootScope;
  readonly toplevel: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}): Promise<ConfigVerdict> {
  const listed = await runProgram({
    program: 'git',
    args: [...GIT_HARDENING, 'config', '-z', '--show-scope', '--show-origin', '--list'],
    cwd: options.toplevel,
    env: gitEnvironment(options.scope),
    timeoutMs: options.timeoutMs,
    maxBytes: 4 * 1024 * 1024,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (listed.exitCode !== 0 || listed.truncated) {
    throw new Error(`git cannot read the repository's configuration: ${listed.stderr.trim()}`);
  }
  return checkRepositoryConfig(parseConfigListing(listed.stdout), {
    scope: options.scope,
    toplevel: options.toplevel,
    home: options.scope.root,
  });
}

/**
 * Runs git hardened (`GIT_HARDENING`, then the repository's own `overrides`) in a clean
 * environment, capturing at most `maxBytes` of each stream. A timeout or an aborted `signal`
 * kills git's whole process group. Rejects only when git cannot be started.
 */
export function runGit(options: RunGitOptions): Promise<GitOutput> {
  return runProgram({
    program: 'git',
    args: [...GIT_HARDENING, ...(options.overrides ?? []), ...options.args],
    cwd: options.cwd,
    env: gitEnvironment(options.scope),
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
