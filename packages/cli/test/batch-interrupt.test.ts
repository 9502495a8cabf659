import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { exited, FIXTURES, lines, startCli, until } from './cli-process.js';

describe('switchyard batch: resume after Ctrl-C', () => {
  it('ends on a second Ctrl-C with exit 130 when a call ignores the first, and the next run finishes', async () => {
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
    let err = '';
    first.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    await until(
      () => existsSync(join(dir, 'b.hang')) && lines(out).length === 2,
      20_000,
      'b to hang',
    );
    first.kill('SIGINT');
    await until(() => err.includes('Ctrl-C again to stop now'), 10_000, 'the first Ctrl-C');
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

  it('lets the calls running at the first Ctrl-C finish: six orders recorded once, none lost', async () => {
    const dir = tempDir('switchyard-graceful-');
    const ids = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'];
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      ids.map((id) => JSON.stringify({ id, task: `order ${id}` })).join('\n'),
    );
    const out = join(dir, 'results.jsonl');
    const ledger = join(dir, 'ledger.txt');
    const release = join(dir, 'release');
    const args = [
      'batch',
      tasksFile,
      '--out',
      out,
      '--sessions',
      '6',
      '--tools',
      join(FIXTURES, 'order-tools.ts'),
      '--model-module',
      join(FIXTURES, 'order-model.ts'),
      '--quiet',
    ];
    const env = { LEDGER: ledger, MARKERS: dir, RELEASE: release };
    const first = startCli(args, env);
    let err = '';
    first.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const firstExit = exited(first);
    await until(
      () => ids.every((id) => existsSync(join(dir, `${id}.started`))),
      20_000,
      'six orders in flight',
    );
    first.kill('SIGINT');
    await until(() => err.includes('Ctrl-C again to stop now'), 10_000, 'the Ctrl-C');
    writeFileSync(release, '');
    const stopped = await firstExit;
    expect(stopped.code).toBe(130);
    expect(lines(ledger).sort()).toEqual(ids.map((id) => `order ${id}`));

    // Run again: every order's call completed, so it is replayed, never recorded twice.
    const second = await exited(startCli(args, env));
    expect(second.code).toBe(0);
    expect(second.err).toContain('6 succeeded, 0 failed');
    expect(lines(ledger)).toHaveLength(6);
    for (const line of lines(out)) {
      expect(JSON.parse(line)).toMatchObject({ status: 'completed', failedToolCalls: 0 });
    }
  }, 60_000);
});
