import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { killGroup } from './kill-group.js';
import type { RootScope } from './root-scope.js';

/** What one git run printed, capped. */
export interface GitOutput {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
}

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
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...HARDENING, ...options.args], {
      cwd: options.cwd,
      env: gitEnvironment(options.scope),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    let truncated = false;
    let timedOut = false;
    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = options.maxBytes - sizes[stream];
      if (room <= 0) {
        truncated = true;
        return;
      }
      if (chunk.length > room) truncated = true;
      chunks[stream].push(chunk.subarray(0, room));
      sizes[stream] += Math.min(room, chunk.length);
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    const stop = () => killGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`git could not be started: ${error.message}`));
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      resolve({
        exitCode,
        stdout: Buffer.concat(chunks.stdout).toString('utf8'),
        stderr: Buffer.concat(chunks.stderr).toString('utf8'),
        truncated,
        timedOut,
      });
    });
  });
}
