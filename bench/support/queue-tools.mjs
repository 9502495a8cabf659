// Tools of the queue benchmarks, as plain objects (a `--tools` module may export an array of tool
// specs): the bench's dispatcher and its `switchyard worker` processes both load this file.
// LEDGER names a file where `charge` appends "charge <key> <pid>" once per run.
import { appendFileSync } from 'node:fs';
import { hash64k } from './cpu-tools.mjs';

const queue = { kind: 'queue' };
const open = { type: 'object' };

export const tools = [
  {
    name: 'hash',
    description: 'SHA-256 of 64 KiB, `rounds` times (CPU-bound)',
    inputSchema: open,
    safety: { readOnly: true },
    executor: queue,
    handler: hash64k,
  },
  {
    name: 'noop',
    description: 'returns its value (a trivial call)',
    inputSchema: open,
    safety: { readOnly: true },
    executor: queue,
    handler: (args) => args.value,
  },
  {
    name: 'read',
    description: 'waits `ms`, then returns its key (read-only)',
    inputSchema: open,
    safety: { readOnly: true },
    executor: queue,
    handler: (args) => new Promise((resolve) => setTimeout(() => resolve(args.key), args.ms ?? 0)),
  },
  {
    name: 'charge',
    description: 'appends to the ledger, then waits `ms` (a side effect)',
    inputSchema: open,
    safety: { sideEffectLevel: 'workspace_write' },
    executor: queue,
    handler: (args) => {
      appendFileSync(process.env.LEDGER, `charge ${args.key} ${process.pid}\n`);
      return new Promise((resolve) => setTimeout(() => resolve(args.key), args.ms ?? 0));
    },
  },
];
