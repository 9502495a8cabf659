import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { type CommandProcess, type OutputStream, streamPath } from './command-process.js';

/** A command's state and a bounded view of its output, as the model sees it. */
export interface CommandSnapshot {
  readonly command_id: string;
  readonly status: CommandProcess['status'];
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly duration_ms: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdout_bytes: number;
  readonly stderr_bytes: number;
  /** True when `stdout` or `stderr` shows less than the command wrote. */
  readonly truncated: boolean;
  /** The file holding stdout and stderr interleaved (readable with the output readers). */
  readonly output_path: string;
}

/** Up to `limit` bytes of a stream file, from its start (`head`) or its end (`tail`). */
export function readStream(
  directory: string,
  stream: OutputStream,
  limit: number,
  from: 'head' | 'tail',
): { text: string; bytes: number; size: number } {
  const fd = openSync(streamPath(directory, stream), 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(limit, size);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, from === 'head' ? 0 : size - length);
    // Cutting inside a multi-byte character leaves a replacement character at the cut only.
    return { text: buffer.subarray(0, read).toString('utf8'), bytes: read, size };
  } finally {
    closeSync(fd);
  }
}

/** The snapshot of a command with at most `inlineBytes` of each stream (`from` its head or tail). */
export function commandSnapshot(
  command: CommandProcess,
  inlineBytes: number,
  from: 'head' | 'tail' = 'head',
): CommandSnapshot {
  const stdout = readStream(command.directory, 'stdout', inlineBytes, from);
  const stderr = readStream(command.directory, 'stderr', inlineBytes, from);
  return {
    command_id: command.id,
    status: command.status,
    exit_code: command.exitCode,
    signal: command.signal,
    duration_ms: Date.now() - command.startedAt,
    stdout: stdout.text,
    stderr: stderr.text,
    stdout_bytes: command.produced.stdout,
    stderr_bytes: command.produced.stderr,
    truncated: stdout.bytes < command.produced.stdout || stderr.bytes < command.produced.stderr,
    output_path: streamPath(command.directory, 'combined'),
  };
}
