import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const FIXTURES = join(ROOT, 'test/fixtures');

/** The CLI from source, in a child process of its own. */
export function startCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves when the child exits, with what it wrote on stderr (and stdout, with `keepOut`). */
export function exited(
  child: ChildProcess,
  keepOut = false,
): Promise<{ code: number | null; signal: string | null; err: string; out: string }> {
  let err = '';
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  if (keepOut) child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  else child.stdout?.resume();
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, err, out })),
  );
}

/** Resolves once `condition` holds (checked every 20 ms); rejects after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The non-empty lines of a file, none when it does not exist yet. */
export function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}
