// Tool handlers and raw Piscina task functions for the worker benchmarks (plain JavaScript, loaded
// by worker threads).
import { createHash } from 'node:crypto';

const BLOCK = Buffer.alloc(64 * 1024, 7);

/** SHA-256 of a 64 KiB block, `rounds` times. */
export function hash64k(args) {
  let digest = '';
  for (let round = 0; round < args.rounds; round += 1)
    digest = createHash('sha256').update(BLOCK).digest('hex');
  return digest;
}

export function echo(args) {
  return args.value;
}

/** Never settles: a hung tool (`worker-hung-call.ts`). */
export function hang() {
  return new Promise(() => {});
}

/** Raw Piscina task: the same work, without Switchyard. */
export default function rawTask(task) {
  return task.kind === 'hash' ? hash64k(task) : task.value;
}
