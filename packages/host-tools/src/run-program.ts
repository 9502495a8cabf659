import { spawn } from 'node:child_process';
import { killGroup, releaseWhenExited } from './kill-group.js';

/** What one program run printed, capped. */
export interface ProgramOutput {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
}

/** Options of one captured program run. */
export interface RunProgramOptions {
  readonly program: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: Uint8Array;
  readonly timeoutMs: number;
  /** Bytes kept of each of stdout and stderr. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

/**
 * Runs a program (no shell) in its own process group, capturing at most `maxBytes` of each
 * stream. A timeout or an aborted `signal` kills the whole group. Rejects only when the program
 * cannot be started.
 */
export function runProgram(options: RunProgramOptions): Promise<ProgramOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.program, [...options.args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    let truncated = false;
    let timedOut = false;
    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = options.maxBytes - sizes[stream];
      if (chunk.length > room) truncated = true;
      if (room <= 0) return;
      chunks[stream].push(chunk.subarray(0, room));
      sizes[stream] += Math.min(room, chunk.length);
    };
    child.stdout?.on('data', collect('stdout'));
    child.stderr?.on('data', collect('stderr'));
    if (options.stdin !== undefined) {
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.stdin);
    }
    const stop = () => {
      killGroup(child);
      releaseWhenExited(child);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      reject(new Error(`${options.program} could not be started: ${error.message}`));
    });
    child.on('close', (exitCode) => {
      if (settled) return;
      settled = true;
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
