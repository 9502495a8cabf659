import { PassThrough, Readable } from 'node:stream';
import type { CommandIo } from '../src/command-io.js';

/** A command's streams captured as text, with optional stdin and environment. */
export function captureIo(
  options: { stdin?: string; env?: Record<string, string>; cwd?: string } = {},
) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const io: CommandIo = {
    stdout,
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}
