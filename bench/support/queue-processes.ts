// Worker processes for the queue benchmarks (the compiled `switchyard worker`, or the raw BullMQ
// baseline worker); Redis comes from the tests' own helper, `startRedisServer`.
export { startRedisServer } from '../../test/support/redis-server.js';

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const QUEUE_TOOLS = fileURLToPath(new URL('./queue-tools.mjs', import.meta.url));

export interface Running {
  readonly pid: number;
  readonly child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function running(child: ChildProcess): Running {
  const exited = once(child, 'exit');
  return {
    pid: child.pid as number,
    child,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

async function started(child: ChildProcess): Promise<Running> {
  let err = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('taking calls')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
  });
  return running(child);
}

/** `switchyard worker` (compiled) over the bench tools. */
export function startSwitchyardWorker(
  url: string,
  options: { concurrency: number; env?: Record<string, string>; extra?: string[] },
): Promise<Running> {
  const args = ['packages/cli/dist/main.js', 'worker', '--tools', QUEUE_TOOLS, '--redis', url];
  args.push('--concurrency', String(options.concurrency), ...(options.extra ?? []));
  return started(
    spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
}

/** The raw BullMQ worker on queue `name`. */
export function startRawWorker(url: string, name: string, concurrency: number): Promise<Running> {
  const script = fileURLToPath(new URL('./raw-bullmq-worker.mjs', import.meta.url));
  return started(
    spawn(process.execPath, [script, url, name, String(concurrency)], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
