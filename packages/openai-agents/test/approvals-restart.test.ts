import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';

const AGENT = fileURLToPath(new URL('./support/approval-agent.ts', import.meta.url));

/** The agent of `support/approval-agent.ts` in a child process of its own, from the sources. */
function startAgent(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions', '@switchyard/source', '--import', 'tsx', AGENT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

interface Printed {
  readonly interruptions: { callId: string; name: string; arguments: object }[];
  readonly output: string | null;
}

/** Runs the agent to its exit; what it printed. */
async function runAgent(env: Record<string, string>): Promise<Printed> {
  const child = startAgent(env);
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

function ledgerOf(dir: string): string[] {
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

const CALLS = JSON.stringify([
  { id: 'c1', name: 'charge', order: 'o-1' },
  { id: 'r1', name: 'refund', order: 'o-2' },
  { id: 'r2', name: 'refund', order: 'o-3' },
]);

describe('Agents SDK approvals on the run journal, RunState resumed in new processes', () => {
  it('interrupts on the calls that need approval; a new process runs the approved one only', async () => {
    const dir = tempDir('agents-approvals-');
    const first = await runAgent({ DIR: dir, STEP: 'start', CALLS });
    expect(first.interruptions).toEqual([
      { callId: 'r1', name: 'refund', arguments: { order: 'o-2' } },
      { callId: 'r2', name: 'refund', arguments: { order: 'o-3' } },
    ]);
    expect(ledgerOf(dir)).toEqual(['charge o-1']);

    // r1 approved, r2 rejected on the RunState read back from its string.
    const resumed = await runAgent({ DIR: dir, STEP: 'resume', APPROVE: 'r1' });
    expect(resumed).toEqual({ interruptions: [], output: 'done' });
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2']);
  }, 240_000);

  it('a process killed after the approved call ran: resuming the same RunState does not repeat it', async () => {
    const dir = tempDir('agents-crash-');
    await runAgent({ DIR: dir, STEP: 'start', CALLS });
    // The approved refund runs, then the model hangs: the state saved at the interruption is all
    // the application has when the process dies.
    const child = startAgent({ DIR: dir, STEP: 'resume', APPROVE: 'r1,r2', HANG: 'model' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until(join(dir, 'model.hang'), 120_000);
    child.kill('SIGKILL');
    await exited;
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);

    const resumed = await runAgent({ DIR: dir, STEP: 'resume', APPROVE: 'r1,r2' });
    expect(resumed.output).toBe('done');
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);
  }, 240_000);
});
