import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher, createToolRegistry, InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { killScriptAt, ledgerOf, runScript } from '../../../test/support/script-process.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { openAIAgentsTools } from '../src/index.js';

const SCRIPT = fileURLToPath(new URL('./support/approval-agent.ts', import.meta.url));

interface Printed {
  readonly interruptions: { callId: string; name: string; arguments: object }[];
  readonly output: string | null;
}

const runAgent = (env: Record<string, string>) => runScript<Printed>(SCRIPT, env);

const CALLS = JSON.stringify([
  { id: 'c1', name: 'charge', order: 'o-1' },
  { id: 'r1', name: 'refund', order: 'o-2' },
  { id: 'r2', name: 'refund', order: 'o-3' },
]);

describe('Agents SDK approvals on the run journal, RunState resumed in new processes', () => {
  it('refuses approvals without a run journal to record them in', () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([]) });
    expect(() => openAIAgentsTools({ dispatcher, approvals: true })).toThrow(InvalidOptionError);
  });

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
    await killScriptAt(
      SCRIPT,
      { DIR: dir, STEP: 'resume', APPROVE: 'r1,r2', HANG: 'model' },
      join(dir, 'model.hang'),
    );
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);

    const resumed = await runAgent({ DIR: dir, STEP: 'resume', APPROVE: 'r1,r2' });
    expect(resumed.output).toBe('done');
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);
  }, 240_000);
});
