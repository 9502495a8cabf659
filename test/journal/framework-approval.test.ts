import { describe, expect, it } from 'vitest';
import { dispatchTurn } from '../../src/index.js';
import {
  decideApproval,
  openRunJournal,
  type RunJournal,
  runApprovedCall,
  toolNeedsApproval,
} from '../../src/journal/index.js';
import { freshStore, ledgerTools, proposed } from './support.js';

/** `runApprovedCall` for `call` in a journal of run `run-1` opened with approvals, then closed. */
async function approvedRun(
  store: ReturnType<typeof freshStore>['store'],
  tools: ReturnType<typeof ledgerTools>,
  call: ReturnType<typeof proposed>,
) {
  const journal: RunJournal = await openRunJournal({ store, runId: 'run-1', approvals: true });
  let dispatches = 0;
  try {
    const result = await runApprovedCall({
      journal,
      decidedBy: 'framework',
      dispatch: async () => {
        dispatches += 1;
        const [only] = await dispatchTurn([call], { dispatcher: tools.dispatcher, journal });
        return only!;
      },
    });
    return { result, dispatches };
  } finally {
    await journal.close();
  }
}

describe('runApprovedCall: a framework’s own approval applied to the run journal', () => {
  it('records the approval on the call the journal holds, and runs it once', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const first = await approvedRun(store, tools, proposed('c1', 'charge', { amount: 5 }));
    expect(first.result).toMatchObject({
      status: 'ok',
      audit: { consent: { decision: 'approved', decidedBy: 'framework' } },
    });
    expect(first.dispatches).toBe(2);
    expect(tools.charge.callCount).toBe(1);

    // Invoked again (a framework resumed from state saved before the call ran): the record answers.
    const again = await approvedRun(store, tools, proposed('c1', 'charge', { amount: 5 }));
    expect(again.result.status).toBe('ok');
    expect(again.dispatches).toBe(1);
    expect(tools.charge.callCount).toBe(1);
  });

  it('keeps a denial recorded in the meantime: the call does not run', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const journal = await openRunJournal({ store, runId: 'run-1', approvals: true });
    await dispatchTurn([proposed('c1', 'charge', { amount: 5 })], {
      dispatcher: tools.dispatcher,
      journal,
    });
    await journal.close();
    await decideApproval(store, 'run-1', { callId: 'c1', decision: 'denied', reason: 'no' });

    const { result } = await approvedRun(store, tools, proposed('c1', 'charge', { amount: 5 }));
    expect(result).toMatchObject({ errorCategory: 'consent_denied', error: 'no' });
    expect(tools.charge.callCount).toBe(0);
  });

  it('asks for destructive and confirm-first tools, not for read-only or unknown ones', () => {
    const tools = ledgerTools();
    const { registry } = tools;
    expect(toolNeedsApproval(registry.resolve('charge'))).toBe(true);
    expect(toolNeedsApproval(registry.resolve('lookup'))).toBe(false);
    expect(toolNeedsApproval(registry.resolve('upsert'))).toBe(false);
    expect(toolNeedsApproval(undefined)).toBe(false);
  });
});
