import { describe, expect, it } from 'vitest';
import { JournalDecisionError } from '../../src/errors.js';
import { decideApproval, listPendingApprovals, openRunJournal } from '../../src/journal/index.js';
import { freshStore, journaledTurn, ledgerTools, proposed } from './support.js';

const charge = (amount: number, id = 'c1') => proposed(id, 'charge', { amount });

function reasonOf(error: unknown): string | undefined {
  return JournalDecisionError.isInstance(error) ? error.reason : undefined;
}

describe('durable approvals', () => {
  it('answers a call that needs approval approval_required and records it as pending', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const results = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls: [charge(5), proposed('c2', 'lookup', { q: 'x' })],
    });
    expect(tools.charge.callCount).toBe(0);
    // A read-only sibling does not need approval and runs.
    expect(results.map((result) => result.status)).toEqual(['approval_required', 'ok']);
    const pending = await listPendingApprovals(store);
    expect(pending).toEqual([
      expect.objectContaining({
        runId: 'run-1',
        callId: 'c1',
        toolName: 'charge',
        arguments: { amount: 5 },
        expiresAt: null,
      }),
    ]);
    // The result carries the pending approval as data, for a framework to show.
    expect(results[0]?.approval).toEqual(pending[0]);
  });

  it('runs an approved call exactly once, in a later run of any process', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [charge(5)];
    await journaledTurn({ store, dispatcher: tools.dispatcher, approvals: true, calls });
    await decideApproval(store, 'run-1', { callId: 'c1', decision: 'approved', decidedBy: 'ana' });
    // Deciding the same again changes nothing.
    await decideApproval(store, 'run-1', { callId: 'c1', decision: 'approved' });
    const [ran] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls,
    });
    expect(ran).toMatchObject({
      ok: true,
      result: 'charged 5',
      audit: { consent: { decision: 'approved', decidedBy: 'ana' } },
    });
    const [replayed] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls,
    });
    expect(replayed?.result).toBe('charged 5');
    expect(tools.charge.callCount).toBe(1);
    expect(await listPendingApprovals(store)).toEqual([]);
  });

  it('answers a denied call consent_denied with the reason, and never runs it', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [charge(5)];
    await journaledTurn({ store, dispatcher: tools.dispatcher, approvals: true, calls });
    await decideApproval(store, 'run-1', {
      callId: 'c1',
      decision: 'denied',
      reason: 'over budget',
    });
    await expect(
      decideApproval(store, 'run-1', { callId: 'c1', decision: 'approved' }),
    ).rejects.toSatisfy((error) => reasonOf(error) === 'already_decided');
    const [result] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls,
    });
    expect(result).toMatchObject({
      ok: false,
      errorCategory: 'consent_denied',
      error: 'over budget',
      denial: { gate: 'approval_policy' },
    });
    expect(tools.charge.callCount).toBe(0);
  });

  it('binds a decision to the call: not another call, not changed arguments', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls: [charge(5)],
    });
    const [seen] = await listPendingApprovals(store);
    await expect(
      decideApproval(store, 'run-1', { callId: 'c9', decision: 'approved' }),
    ).rejects.toSatisfy((error) => reasonOf(error) === 'unknown_call');
    await expect(
      decideApproval(store, 'run-1', { callId: 'c1', decision: 'approved', toolName: 'pay' }),
    ).rejects.toSatisfy((error) => reasonOf(error) === 'other_tool');
    // The model proposes the call again with another amount: a new request, the old one's
    // decision does not carry over…
    await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls: [charge(500)],
    });
    await decideApproval(store, 'run-1', {
      callId: 'c1',
      decision: 'approved',
      key: seen?.key,
    });
    const [result] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: true,
      calls: [charge(500)],
    });
    expect(result?.status).toBe('approval_required');
    expect(tools.charge.callCount).toBe(0);
    // …and a decision naming the first version's key cannot apply to a key that no call has.
    await expect(
      decideApproval(store, 'run-1', { callId: 'c1', decision: 'approved', key: 'p0.0#charge#x' }),
    ).rejects.toSatisfy((error) => reasonOf(error) === 'changed_arguments');
  });

  it('lets a pending approval lapse into a denial after expiresInMs', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    let now = 1_000;
    const clock = () => now;
    const approvals = { expiresInMs: 60_000 };
    await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals,
      now: clock,
      calls: [charge(5)],
    });
    expect((await listPendingApprovals(store))[0]?.expiresAt).toBe(new Date(61_000).toISOString());
    now = 61_000;
    const journal = await openRunJournal({ store, runId: 'run-1', now: clock });
    await expect(journal.decide({ callId: 'c1', decision: 'approved' })).rejects.toSatisfy(
      (error) => reasonOf(error) === 'expired',
    );
    await journal.close();
    const [result] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals,
      now: clock,
      calls: [charge(5)],
    });
    expect(result).toMatchObject({
      errorCategory: 'consent_denied',
      denial: { gate: 'approval_unavailable' },
    });
    expect(tools.charge.callCount).toBe(0);
  });

  it('asks only about the calls `when` picks', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const results = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      approvals: { when: (call) => call.toolArgs.amount === 500 },
      calls: [charge(5, 'a'), charge(500, 'b')],
    });
    expect(results.map((result) => result.status)).toEqual(['ok', 'approval_required']);
  });
});
