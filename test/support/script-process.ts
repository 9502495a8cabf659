// A TypeScript script run from the sources in a child process of its own, as the restart tests of
// the framework adapters run a framework in one process, kill it or let it exit, and resume it in
// another; and the ledger file in which their tools leave one line per side effect.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Starts `script` under tsx, resolving workspace packages to their sources; stdout is piped. */
export function startScript(script: string, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions', '@switchyard/source', '--import', 'tsx', script],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
}

/**
 * Runs `script` to its exit and parses the last line it printed, as JSON.
 * @throws Error when it exits with another code than 0.
 */
export async function runScript<T>(script: string, env: Record<string, string>): Promise<T> {
  const child = startScript(script, env);
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${String(code)}: ${out}`);
  return JSON.parse(out.trim().split('\n').at(-1) as string) as T;
}

/** Starts `script`, waits for it to write `marker`, and kills it with SIGKILL. */
export async function killScriptAt(
  script: string,
  env: Record<string, string>,
  marker: string,
): Promise<void> {
  const child = startScript(script, env);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await until(marker, 120_000);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The lines of `<dir>/ledger.txt`: one per side effect the tools took. */
export function ledgerOf(dir: string): string[] {
  const path = join(dir, 'ledger.txt');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** Resolves once `path` exists (checked every 20 ms); rejects after `ms`. */
async function until(path: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
