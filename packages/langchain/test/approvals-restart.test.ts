import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { killScriptAt, ledgerOf, runScript } from '../../../test/support/script-process.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const SCRIPT = fileURLToPath(new URL('./support/approval-graph.ts', import.meta.url));

interface Printed {
  readonly answers?: [string, string][];
  readonly last?: string;
  readonly interrupts?: { type: string; approval: Record<string, unknown>; refused?: string }[];
  readonly error?: string;
}

const runGraph = (env: Record<string, string>) => runScript<Printed>(SCRIPT, env);

const CHARGE_AND_REFUND = JSON.stringify([
  { id: 'c1', name: 'charge', args: { order: 'o-1' } },
  { id: 'r1', name: 'refund', args: { order: 'o-2' } },
]);

describe('LangGraph approvals on the run journal, across processes (SQLite checkpointer)', () => {
  it('pauses on interrupt() for the call that needs approval; a new process resumes it once', async () => {
    const dir = tempDir('langgraph-approvals-');
    const first = await runGraph({ DIR: dir, STEP: 'start', CALLS: CHARGE_AND_REFUND });
    expect(first.interrupts).toEqual([
      {
        type: 'switchyard_approval',
        approval: expect.objectContaining({
          callId: 'r1',
          toolName: 'refund',
          arguments: { order: 'o-2' },
          runId: 'thread-1',
        }),
      },
    ]);
    expect(ledgerOf(dir)).toEqual(['charge o-1']);

    const resumed = await runGraph({ DIR: dir, STEP: 'resume', RESUME: 'true' });
    // The node ran again from its checkpoint: the charge came back from the journal.
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2']);
    expect(resumed.answers).toEqual([
      ['c1', 'charge o-1'],
      ['r1', 'refund o-2'],
    ]);
    expect(resumed.last).toBe('done');
  }, 240_000);

  it('refuses an answer naming another call or other arguments, runs nothing, and asks again', async () => {
    const dir = tempDir('langgraph-approvals-');
    await runGraph({ DIR: dir, STEP: 'start', CALLS: CHARGE_AND_REFUND });
    const resume = (answer: object) =>
      runGraph({ DIR: dir, STEP: 'resume', RESUME: JSON.stringify(answer) });
    const otherCall = await resume({ decision: 'approved', callId: 'c1' });
    expect(otherCall.interrupts).toEqual([
      expect.objectContaining({
        approval: expect.objectContaining({ callId: 'r1' }),
        refused: 'the answer names call c1, not call r1',
      }),
    ]);
    const otherArguments = await resume({ decision: 'approved', key: 'c.r1#refund#0000' });
    expect(otherArguments.interrupts?.[0]?.refused).toContain('other arguments');
    expect(ledgerOf(dir)).toEqual(['charge o-1']);

    const denied = await resume({ decision: 'denied', reason: 'not this one' });
    expect(ledgerOf(dir)).toEqual(['charge o-1']);
    expect(denied.answers?.map(([id]) => id)).toEqual(['c1', 'r1']);
    expect(denied.answers?.[1]?.[1]).toContain('not this one');
    expect(denied.last).toBe('done');
  }, 300_000);

  it.each([
    ['with a journal', 'on', ['charge o-1']],
    ['without one (as LangGraph alone)', 'off', ['charge o-1', 'charge o-1']],
  ])(
    'a node re-run after a SIGKILL between an effect and the checkpoint: %s',
    async (_, journal, charged) => {
      const dir = tempDir('langgraph-crash-');
      const calls = JSON.stringify([
        { id: 'c1', name: 'charge', args: { order: 'o-1' } },
        { id: 'l1', name: 'lookup', args: { order: 'o-1' } },
      ]);
      // The charge completes, then the lookup hangs: the node's writes never reach the checkpoint.
      await killScriptAt(
        SCRIPT,
        { DIR: dir, STEP: 'start', CALLS: calls, HANG: 'lookup', JOURNAL: journal },
        join(dir, 'lookup.hang'),
      );
      expect(ledgerOf(dir)).toEqual(['charge o-1']);

      const resumed = await runGraph({ DIR: dir, STEP: 'continue', JOURNAL: journal });
      expect(ledgerOf(dir)).toEqual(charged);
      expect(resumed.answers).toEqual([
        ['c1', 'charge o-1'],
        ['l1', 'order o-1 is open'],
      ]);
    },
    240_000,
  );
});
