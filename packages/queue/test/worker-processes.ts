import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const QUEUE_TOOLS = fileURLToPath(new URL('./fixtures/queue-tools.ts', import.meta.url));
/** The workspace's CLI, run from source: the queue's tests drive real `switchyard worker` processes. */
const CLI = join(ROOT, 'packages/cli/src/main.ts');

/** A `switchyard worker` process started from source. */
export interface WorkerProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (finish running calls), then wait for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `switchyard worker --tools <tools> --redis <url>` (the queue tests' tools unless another
 * module is named) with a short lock (1 s) and stalled check (0.5 s), so a killed worker is noticed
 * in about two seconds. Resolves once it takes calls.
 */
export async function startWorkerProcess(
  redisUrl: string,
  env: Record<string, string>,
  extra: string[] = [],
  tools: string = QUEUE_TOOLS,
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      'worker',
      '--tools',
      tools,
      '--redis',
      redisUrl,
      '--lock-ms',
      '1000',
      '--stalled-ms',
      '500',
      ...extra,
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await saidOnStderr(child, 'taking calls');
  const exited = once(child, 'exit');
  return {
    pid: child.pid as number,
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The ledger's lines (none when it does not exist yet). */
export function ledgerLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** Resolves once `condition` holds (checked every 20 ms); rejects after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once the child has written `text` on stderr; rejects if it exits first. */
export function saidOnStderr(child: ChildProcess, text: string): Promise<void> {
  let err = '';
  return new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes(text)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before "${text}": ${err}`)));
  });
}
