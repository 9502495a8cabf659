import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyReceipts } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { INTERRUPTED_CALL_ERROR } from '../src/with-resume-journal.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures');
const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6'];

/** The CLI from source, in a child process of its own. */
function startCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null; err: string }> {
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdout?.resume();
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, err })),
  );
}

/** Resolves once `condition` holds (checked every 20 ms); rejects after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

describe('switchyard batch: resume after a kill', () => {
  it('skips finished tasks and never runs a completed or cut-off side effect twice', async () => {
    const dir = tempDir('switchyard-resume-');
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      TASKS.map((id) => JSON.stringify({ id, task: `bill ${id}` })).join('\n'),
    );
    const out = join(dir, 'results.jsonl');
    const ledger = join(dir, 'ledger.txt');
    const args = [
      'batch',
      tasksFile,
      '--out',
      out,
      '--sessions',
      '4',
      '--tools',
      join(FIXTURES, 'ledger-tools.ts'),
      '--model-module',
      join(FIXTURES, 'ledger-model.ts'),
      '--audit',
      join(dir, 'receipts'),
      '--quiet',
    ];
    const env = { LEDGER: ledger, HANG_DIR: dir };

    // Run 1: t2 hangs in a read-only checkpoint after its charge completed; t5 hangs inside a
    // non-idempotent call after its side effect. The four others finish; then the process is killed.
    const first = startCli(args, { ...env, HANG_AT: 'checkpoint:t2,charge_slowly:t5' });
    const firstExit = exited(first);
    await until(
      () =>
        existsSync(join(dir, 't2.hang')) &&
        existsSync(join(dir, 't5.hang')) &&
        lines(out).length === 4,
      20_000,
      'two hung tasks and four results',
    );
    first.kill('SIGKILL');
    expect((await firstExit).signal).toBe('SIGKILL');
    const count = (entry: string) => lines(ledger).filter((line) => line === entry).length;
    expect(count('charge t2')).toBe(1);
    expect(count('charge_slowly t5')).toBe(1);
    expect(count('charge_slowly t2')).toBe(0);

    // Run 2: the same command finishes the two cut-off tasks.
    const second = await exited(startCli(args, env));
    expect(second.err).toContain('2 succeeded, 0 failed, 4 finished earlier');
    expect(second.code).toBe(0);
    const results = new Map(lines(out).map((line) => [JSON.parse(line).id, JSON.parse(line)]));
    expect([...results.keys()].sort()).toEqual(TASKS);
    for (const id of TASKS) {
      expect(count(`charge ${id}`), `charge ${id}`).toBe(1);
      expect(count(`charge_slowly ${id}`), `charge_slowly ${id}`).toBe(1);
    }
    // t2's two finished model turns are replayed, not asked again; its checkpoint is read-only
    // and ran again; its charge did not.
    expect(count('checkpoint t2')).toBe(2);
    expect(results.get('t2')).toMatchObject({
      status: 'completed',
      failedToolCalls: 0,
      resumed: { modelTurns: 2, toolCalls: 1 },
      text: 'done: charge_slowly recorded for t2',
    });
    // t5's cut-off call is not run again: the model is told why.
    expect(results.get('t5')).toMatchObject({
      status: 'completed',
      failedToolCalls: 1,
      resumed: { modelTurns: 3, toolCalls: 3 },
    });
    expect(results.get('t5').text).toContain(INTERRUPTED_CALL_ERROR.slice(0, 40));

    // One receipt log per task, each an intact chain across the two runs.
    for (const id of TASKS) {
      expect(verifyReceipts(join(dir, 'receipts', `${id}.jsonl`)).ok, id).toBe(true);
    }

    // Run 3: nothing left to do, nothing runs.
    const before = lines(ledger).length;
    const third = await exited(startCli(args, env));
    expect(third.code).toBe(0);
    expect(third.err).toContain('6 finished earlier');
    expect(lines(ledger).length).toBe(before);
  }, 60_000);

  it('ends on Ctrl-C with exit 130, writing no line for the stopped task, which the next run finishes', async () => {
    const dir = tempDir('switchyard-interrupt-');
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      ['a', 'b', 'c'].map((id) => JSON.stringify({ id, task: id })).join('\n'),
    );
    const out = join(dir, 'results.jsonl');
    const ledger = join(dir, 'ledger.txt');
    const args = [
      'batch',
      tasksFile,
      '-o',
      out,
      '--tools',
      join(FIXTURES, 'ledger-tools.ts'),
      '--model-module',
      join(FIXTURES, 'ledger-model.ts'),
      '--quiet',
    ];
    const env = { LEDGER: ledger, HANG_DIR: dir };
    // b hangs in a call that ignores cancellation, as a stuck tool would.
    const first = startCli(args, { ...env, HANG_AT: 'checkpoint:b' });
    const firstExit = exited(first);
    await until(
      () => existsSync(join(dir, 'b.hang')) && lines(out).length === 2,
      20_000,
      'b to hang',
    );
    first.kill('SIGINT');
    const stopped = await firstExit;
    expect(stopped.code).toBe(130);
    expect(stopped.err).toContain('1 interrupted (run again to resume)');
    expect(
      lines(out)
        .map((line) => JSON.parse(line).id)
        .sort(),
    ).toEqual(['a', 'c']);

    const second = await exited(startCli(args, env));
    expect(second.code).toBe(0);
    expect(
      lines(out)
        .map((line) => JSON.parse(line).id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    const count = (entry: string) => lines(ledger).filter((line) => line === entry).length;
    expect([count('charge b'), count('checkpoint b'), count('charge_slowly b')]).toEqual([1, 2, 1]);
  }, 60_000);
});
