import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { killGroup } from './kill-group.js';

/** How a command ended, or `running`. */
export type CommandStatus = 'running' | 'completed' | 'timed_out' | 'cancelled' | 'failed_to_start';

/** The streams a command's output is kept in, each as a file under its artifact directory. */
export type OutputStream = 'stdout' | 'stderr' | 'combined';

/** What to start. `argv[0]` is the program; no shell unless `argv` says so. */
export interface CommandSpec {
  readonly id: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: string;
  readonly timeoutMs: number;
  /** Directory the stream files go to (created). */
  readonly directory: string;
  /** Bytes kept per stream file; output past it is dropped and counted. */
  readonly maxOutputBytes: number;
}

/** A started command: its state, kept output, and the promise of its end. */
export interface CommandProcess {
  readonly id: string;
  readonly argv: readonly string[];
  readonly directory: string;
  readonly startedAt: number;
  status: CommandStatus;
  exitCode: number | null;
  signal: string | null;
  /** Bytes each stream produced (also those dropped past `maxOutputBytes`). */
  readonly produced: Record<OutputStream, number>;
  /** Resolves when the process has exited and its files are closed. */
  readonly ended: Promise<void>;
  /** Kills the whole process group; `status` becomes `reason` if still running. */
  stop(reason: 'timed_out' | 'cancelled'): void;
}

/** The file a stream of a command is kept in. */
export function streamPath(directory: string, stream: OutputStream): string {
  return join(directory, `${stream}.log`);
}

/**
 * Starts a command in its own process group (so a timeout or cancellation kills everything it
 * started), writing stdout, stderr and both interleaved to files. Never throws: a program that
 * cannot start yields `failed_to_start`.
 */
export function startCommand(spec: CommandSpec): CommandProcess {
  mkdirSync(spec.directory, { recursive: true });
  const files = {
    stdout: openSync(streamPath(spec.directory, 'stdout'), 'w'),
    stderr: openSync(streamPath(spec.directory, 'stderr'), 'w'),
    combined: openSync(streamPath(spec.directory, 'combined'), 'w'),
  };
  const produced = { stdout: 0, stderr: 0, combined: 0 };
  const write = (stream: OutputStream, chunk: Buffer) => {
    const room = spec.maxOutputBytes - produced[stream];
    if (room > 0) writeSync(files[stream], chunk, 0, Math.min(room, chunk.length));
    produced[stream] += chunk.length;
  };
  let child: ChildProcess | undefined;
  let settle: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const record: CommandProcess = {
    id: spec.id,
    argv: spec.argv,
    directory: spec.directory,
    startedAt: Date.now(),
    status: 'running',
    exitCode: null,
    signal: null,
    produced,
    ended,
    stop(reason) {
      if (record.status !== 'running') return;
      record.status = reason;
      if (child !== undefined) killGroup(child);
    },
  };
  let finished = false;
  const finish = () => {
    // Node may report both `error` and `close` for a program that could not start.
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    for (const fd of Object.values(files)) closeSync(fd);
    settle();
  };
  const timer = setTimeout(() => record.stop('timed_out'), spec.timeoutMs);
  const [program = '', ...args] = spec.argv;
  child = spawn(program, args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  child.stdout?.on('data', (chunk: Buffer) => {
    write('stdout', chunk);
    write('combined', chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    write('stderr', chunk);
    write('combined', chunk);
  });
  if (spec.stdin !== undefined) {
    child.stdin?.on('error', () => {});
    child.stdin?.end(spec.stdin);
  }
  child.on('error', (error) => {
    if (record.status === 'running') record.status = 'failed_to_start';
    write('stderr', Buffer.from(`${error.message}\n`));
    live.delete(child as ChildProcess);
    finish();
  });
  child.on('close', (code, signal) => {
    live.delete(child as ChildProcess);
    record.exitCode = code;
    record.signal = signal;
    if (record.status === 'running') record.status = 'completed';
    finish();
  });
  return record;
}

// Every command group still running; killed if the host process exits first, so none is orphaned.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
});
