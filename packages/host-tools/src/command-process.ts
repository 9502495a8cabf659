import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Launcher, namespaceInit } from './command-isolation.js';
import { findProgram } from './find-program.js';
import { killGroup, releaseWhenExited } from './kill-group.js';

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
  /** What keeps the command's processes together (`findLauncher`). */
  readonly launcher: Launcher;
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
  /** Kills every process of the command; `status` becomes `reason` if still running. */
  stop(reason: 'timed_out' | 'cancelled'): void;
}

/** The file a stream of a command is kept in. */
export function streamPath(directory: string, stream: OutputStream): string {
  return join(directory, `${stream}.log`);
}

/**
 * Starts a command in a PID namespace or its own process group (`spec.launcher`), writing stdout,
 * stderr and both interleaved to files. The command is its program: when the program exits, what
 * it left running is killed (all of it in a namespace; what stayed in its process group
 * otherwise), and a timeout or `stop` kills everything the same way. The end never waits past a
 * stop for output pipes that an escaped descendant holds. Never throws: a program that cannot
 * start yields `failed_to_start`.
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
  const namespaced = spec.launcher.isolation === 'pid-namespace';
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
      if (child === undefined) return;
      terminate(child, namespaced);
      releaseWhenExited(child);
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
  const failToStart = (message: string) => {
    if (record.status === 'running') record.status = 'failed_to_start';
    write('stderr', Buffer.from(`${message}\n`));
    if (child !== undefined) live.delete(child);
    finish();
  };
  const timer = setTimeout(() => record.stop('timed_out'), spec.timeoutMs);
  const [program = ''] = spec.argv;
  // Inside a namespace the program is started by a shell, which cannot tell "not found" apart
  // from an exit status: look first.
  if (namespaced && findProgram(program, { cwd: spec.cwd, path: spec.env.PATH }) === undefined) {
    failToStart(`spawn ${program} ENOENT: no such executable`);
    return record;
  }
  const [command = '', ...args] = [...spec.launcher.prefix, ...spec.argv];
  child = spawn(command, args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const started = child;
  live.add(started);
  started.stdout?.on('data', (chunk: Buffer) => {
    write('stdout', chunk);
    write('combined', chunk);
  });
  started.stderr?.on('data', (chunk: Buffer) => {
    write('stderr', chunk);
    write('combined', chunk);
  });
  if (spec.stdin !== undefined) {
    started.stdin?.on('error', () => {});
    started.stdin?.end(spec.stdin);
  }
  started.on('error', (error) => failToStart(error.message));
  started.on('exit', () => {
    // Without a namespace, whatever the program left in its group goes with it.
    if (!namespaced) killGroup(started);
  });
  started.on('close', (code, signal) => {
    live.delete(started);
    record.exitCode = code;
    record.signal = signal;
    if (record.status === 'running') record.status = 'completed';
    finish();
  });
  return record;
}

/**
 * Kills every process of a command. In a namespace, its PID 1: the kernel then kills the rest,
 * and `unshare` exits only once they are gone, so the command's end means nothing is left.
 */
function terminate(child: ChildProcess, namespaced: boolean): void {
  const init = namespaced && child.pid !== undefined ? namespaceInit(child.pid) : undefined;
  if (init === undefined) {
    killGroup(child);
    return;
  }
  try {
    process.kill(init, 'SIGKILL');
  } catch {
    killGroup(child);
  }
}

// Every command group still running; killed if the host process exits first, so none is orphaned.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
});
