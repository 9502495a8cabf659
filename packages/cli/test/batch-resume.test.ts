import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyReceipts } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { exited, FIXTURES, lines, startCli, until } from './cli-process.js';

const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6'];

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

    // Run 2: the same command goes on with the two cut-off tasks. t2 finishes; t5's cut-off call
    // may or may not have taken effect: it is not run again, and t5 is in doubt, not succeeded.
    const second = await exited(startCli(args, env));
    expect(second.err).toContain('1 succeeded, 0 failed, 1 in doubt');
    expect(second.code).toBe(4);
    const latest = () => new Map(lines(out).map((line) => [JSON.parse(line).id, JSON.parse(line)]));
    expect([...latest().keys()].sort()).toEqual(TASKS);
    for (const id of TASKS) {
      expect(count(`charge ${id}`), `charge ${id}`).toBe(1);
      expect(count(`charge_slowly ${id}`), `charge_slowly ${id}`).toBe(1);
    }
    // t2's two finished model turns are replayed, not asked again; its checkpoint is read-only
    // and ran again; its charge did not.
    expect(count('checkpoint t2')).toBe(2);
    expect(latest().get('t2')).toMatchObject({
      status: 'completed',
      failedToolCalls: 0,
      resumed: { modelTurns: 2, toolCalls: 1 },
      text: 'done: charge_slowly recorded for t2',
    });
    const t5 = latest().get('t5');
    expect(t5).toMatchObject({
      status: 'in_doubt',
      resumed: { modelTurns: 3, toolCalls: 1 },
      inDoubt: [{ toolName: 'charge_slowly', arguments: { task: 't5' } }],
    });

    // The operator lists it, finds the charge went through, and says so.
    const listed = await exited(startCli(['in-doubt', '--out', out, '--json'], env), true);
    expect(listed.code).toBe(0);
    const [doubt] = listed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(doubt).toMatchObject({ runId: t5.inDoubt[0].runId, toolName: 'charge_slowly' });
    const resolved = await exited(
      startCli(['in-doubt', 'done', doubt.runId, doubt.callId, '--out', out], env),
    );
    expect(resolved.code).toBe(0);

    // Run 3: t5 goes on from its journal and finishes; nothing runs twice.
    const third = await exited(startCli(args, env));
    expect(third.err).toContain('1 succeeded, 0 failed, 5 finished earlier');
    expect(third.code).toBe(0);
    expect(latest().get('t5')).toMatchObject({ status: 'completed' });
    expect(count('charge_slowly t5')).toBe(1);

    // One receipt log per task, each an intact chain across the runs.
    for (const id of TASKS) {
      expect(verifyReceipts(join(dir, 'receipts', `${id}.jsonl`)).ok, id).toBe(true);
    }

    // Run 4: nothing left to do, nothing runs.
    const before = lines(ledger).length;
    const fourth = await exited(startCli(args, env));
    expect(fourth.code).toBe(0);
    expect(fourth.err).toContain('6 finished earlier');
    expect(lines(ledger).length).toBe(before);
  }, 90_000);

  it('parks a task whose call waits for approval while the batch goes on, and finishes it once approved', async () => {
    const dir = tempDir('switchyard-approvals-');
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      [
        { id: 'keep', task: 'order keep' },
        { id: 'give-back', task: 'refund give-back' },
      ]
        .map((task) => JSON.stringify(task))
        .join('\n'),
    );
    const out = join(dir, 'results.jsonl');
    const ledger = join(dir, 'ledger.txt');
    const release = join(dir, 'release');
    writeFileSync(release, '');
    const args = [
      'batch',
      tasksFile,
      '--out',
      out,
      '--approvals',
      '--tools',
      join(FIXTURES, 'order-tools.ts'),
      '--model-module',
      join(FIXTURES, 'order-model.ts'),
      '--quiet',
    ];
    const env = { LEDGER: ledger, MARKERS: dir, RELEASE: release };
    const first = await exited(startCli(args, env));
    expect(first.code).toBe(5);
    expect(first.err).toContain('1 succeeded, 0 failed, 1 awaiting approval');
    expect(lines(ledger)).toEqual(['order keep']);

    const listed = await exited(startCli(['approvals', '--out', out, '--json'], env), true);
    const [pending] = listed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(pending).toMatchObject({ toolName: 'refund', arguments: { task: 'give-back' } });
    // Deciding on another call id is refused and changes nothing.
    const wrong = await exited(
      startCli(['approvals', 'approve', pending.runId, 'call_nope', '--out', out], env),
    );
    expect(wrong.code).toBe(1);
    const approved = await exited(
      startCli(['approvals', 'approve', pending.runId, pending.callId, '--out', out], env),
    );
    expect(approved.code).toBe(0);

    const second = await exited(startCli(args, env));
    expect(second.code).toBe(0);
    expect(second.err).toContain('1 succeeded, 0 failed, 1 finished earlier');
    const third = await exited(startCli(args, env));
    expect(third.code).toBe(0);
    expect(lines(ledger)).toEqual(['order keep', 'refund give-back']);
  }, 60_000);
});
