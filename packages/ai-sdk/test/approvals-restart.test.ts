import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher, createToolRegistry, InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { killScriptAt, ledgerOf, runScript } from '../../../test/support/script-process.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { aiSdkTools } from '../src/index.js';

const SCRIPT = fileURLToPath(new URL('./support/approval-chat.ts', import.meta.url));

interface Printed {
  readonly requests?: string[];
  readonly text?: string;
  readonly error?: string;
}

const runChat = (env: Record<string, string>) => runScript<Printed>(SCRIPT, env);

const CALLS = JSON.stringify([
  { id: 'c1', name: 'charge', order: 'o-1' },
  { id: 'r1', name: 'refund', order: 'o-2' },
  { id: 'r2', name: 'refund', order: 'o-3' },
]);

describe('AI SDK tool approvals on the run journal, the conversation resumed in new processes', () => {
  it('refuses approvals without a run journal to record them in', () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([]) });
    expect(() => aiSdkTools({ dispatcher, approvals: true })).toThrow(InvalidOptionError);
  });

  it('asks for approval of the calls that need it; a new process runs the approved one only', async () => {
    const dir = tempDir('ai-sdk-approvals-');
    const first = await runChat({ DIR: dir, STEP: 'start', CALLS });
    expect(first).toEqual({ requests: ['r1', 'r2'], text: '' });
    expect(ledgerOf(dir)).toEqual(['charge o-1']);

    // r1 approved, r2 denied, in the messages read back from the saved conversation.
    const resumed = await runChat({ DIR: dir, STEP: 'resume', APPROVE: 'r1' });
    expect(resumed).toEqual({ requests: [], text: 'done' });
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2']);
  }, 240_000);

  it('refuses an approval whose call input was changed, and runs nothing', async () => {
    const dir = tempDir('ai-sdk-approvals-');
    await runChat({ DIR: dir, STEP: 'start', CALLS });
    const tampered = await runChat({ DIR: dir, STEP: 'resume', APPROVE: 'r1', TAMPER: 'r1' });
    expect(tampered.error).toBe('AI_InvalidToolApprovalSignatureError');
    expect(ledgerOf(dir)).toEqual(['charge o-1']);
  }, 240_000);

  it('a process killed after the approved calls ran: sending the same approvals again does not repeat them', async () => {
    const dir = tempDir('ai-sdk-crash-');
    await runChat({ DIR: dir, STEP: 'start', CALLS });
    // The approved refunds run, then the model hangs: the conversation saved at the approval
    // requests is all the application has when the process dies.
    await killScriptAt(
      SCRIPT,
      { DIR: dir, STEP: 'resume', APPROVE: 'r1,r2', HANG: 'model' },
      join(dir, 'model.hang'),
    );
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);

    const resumed = await runChat({ DIR: dir, STEP: 'resume', APPROVE: 'r1,r2' });
    expect(resumed.text).toBe('done');
    expect(ledgerOf(dir)).toEqual(['charge o-1', 'refund o-2', 'refund o-3']);
  }, 240_000);
});
