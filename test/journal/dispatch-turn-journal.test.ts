import { describe, expect, it } from 'vitest';
import { JournalDecisionError } from '../../src/errors.js';
import { createDispatcher, createToolRegistry, dispatchTurn } from '../../src/index.js';
import { openRunJournal } from '../../src/journal/index.js';
import { recordingTool } from '../../src/testing/index.js';
import { freshStore, journaledTurn, ledgerTools, proposed } from './support.js';

describe('dispatchTurn with a journal: completed calls', () => {
  it('runs a call once: a resumed run gets the recorded result without running it', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [proposed('c1', 'charge', { amount: 5 })];
    const [first] = await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    expect(first).toMatchObject({ ok: true, result: 'charged 5' });
    // Another process (a new dispatcher, a new journal of the same run) resumes.
    const again = ledgerTools();
    const [replayed] = await journaledTurn({ store, dispatcher: again.dispatcher, calls });
    expect(again.charge.callCount).toBe(0);
    expect(replayed).toMatchObject({
      ok: true,
      status: 'ok',
      result: 'charged 5',
      toolCallId: 'c1',
      audit: { layers: [{ name: 'journal', status: 'replayed' }] },
    });
  });

  it('does not take a record for another call: other arguments or another id run', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'charge', { amount: 5 })],
    });
    await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'charge', { amount: 6 }), proposed('c2', 'charge', { amount: 5 })],
    });
    expect(tools.charge.calls.map((call) => call.args.amount)).toEqual([5, 6, 5]);
  });

  it('records nothing for read-only calls, which run again on resume', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [proposed('c1', 'lookup', { q: 'x' })];
    await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    expect(tools.lookup.callCount).toBe(2);
    expect(await store.read('run-1')).toEqual([]);
  });

  it('records read-only calls too when asked', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [proposed('c1', 'lookup', { q: 'x' })];
    await journaledTurn({ store, dispatcher: tools.dispatcher, calls, recordReadOnly: true });
    await journaledTurn({ store, dispatcher: tools.dispatcher, calls, recordReadOnly: true });
    expect(tools.lookup.callCount).toBe(1);
  });

  it('hands the tool an idempotency key that stays the same across resumes', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const calls = [proposed('c1', 'pay', { amount: 5 })];
    const journal = await openRunJournal({ store, runId: 'run-1' });
    // The first run is cut off while the payment runs: it stays in doubt…
    tools.pay.once({ type: 'hang_until_aborted' });
    const controller = new AbortController();
    const cut = dispatchTurn(calls, {
      dispatcher: tools.dispatcher,
      journal,
      signal: controller.signal,
    });
    await tools.pay.nextCall();
    controller.abort();
    expect((await cut)[0]?.status).toBe('cancelled');
    await journal.close();
    expect(
      (
        await openRunJournal({ store, runId: 'run-1' }).then(async (opened) => {
          const found = opened.inDoubtCalls();
          await opened.close();
          return found;
        })
      ).map((call) => call.callId),
    ).toEqual(['c1']);
    // …and, its tool honouring the key, runs again on resume with the same key.
    const [resumed] = await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    expect(resumed?.ok).toBe(true);
    const keys = tools.pay.calls.map((call) => call.runtime.idempotencyKey);
    expect(keys[0]).toMatch(/^sy-[0-9a-f]{32}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
    expect(resumed?.result).toBe(keys[0]);
  });
});

describe('dispatchTurn with a journal: calls in doubt', () => {
  /** Runs `name` in run-1 and cancels it while it runs: its intent has no outcome. */
  async function cutOff(store: ReturnType<typeof freshStore>['store'], name: 'charge' | 'upsert') {
    const tools = ledgerTools();
    tools[name].once({ type: 'hang_until_aborted' });
    const journal = await openRunJournal({ store, runId: 'run-1' });
    const controller = new AbortController();
    const turn = dispatchTurn([proposed('c1', name, { amount: 5 })], {
      dispatcher: tools.dispatcher,
      journal,
      signal: controller.signal,
    });
    await tools[name].nextCall();
    controller.abort();
    await turn;
    await journal.close();
  }

  it('never runs again a non-idempotent call that was cut off: it is in_doubt', async () => {
    const { store } = freshStore();
    await cutOff(store, 'charge');
    const tools = ledgerTools();
    const [result] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'charge', { amount: 5 })],
    });
    expect(tools.charge.callCount).toBe(0);
    expect(result).toMatchObject({ ok: false, status: 'in_doubt', errorCategory: 'in_doubt' });
    // Asked again, it stays in doubt: nothing was resolved.
    const [again] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'charge', { amount: 5 })],
    });
    expect(again?.status).toBe('in_doubt');
    expect(tools.charge.callCount).toBe(0);
  });

  it('runs an idempotent call that was cut off again', async () => {
    const { store } = freshStore();
    await cutOff(store, 'upsert');
    const tools = ledgerTools();
    const [result] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'upsert', { amount: 5 })],
    });
    expect(result?.ok).toBe(true);
    expect(tools.upsert.callCount).toBe(1);
  });

  it('leaves nothing in doubt for a call cancelled before it started', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const journal = await openRunJournal({ store, runId: 'run-1' });
    const [result] = await dispatchTurn([proposed('c1', 'charge', { amount: 5 })], {
      dispatcher: tools.dispatcher,
      journal,
      signal: AbortSignal.abort(),
    });
    expect(result?.status).toBe('cancelled');
    expect(journal.inDoubtCalls()).toEqual([]);
    await journal.close();
    const [resumed] = await journaledTurn({
      store,
      dispatcher: tools.dispatcher,
      calls: [proposed('c1', 'charge', { amount: 5 })],
    });
    expect(resumed?.ok).toBe(true);
    expect(tools.charge.callCount).toBe(1);
  });

  it.each([
    ['done', { ok: true, status: 'ok' }, 0],
    ['abandon', { ok: false, status: 'abandoned' }, 0],
    ['rerun', { ok: true, status: 'ok', result: 'charged 5' }, 1],
  ] as const)('applies an operator resolution %s', async (resolution, expected, runs) => {
    const { store } = freshStore();
    await cutOff(store, 'charge');
    const journal = await openRunJournal({ store, runId: 'run-1' });
    const [doubt] = journal.inDoubtCalls();
    expect(doubt).toMatchObject({ callId: 'c1', toolName: 'charge', arguments: { amount: 5 } });
    await journal.resolve({ callId: 'c1', resolution, resolvedBy: 'ana', note: 'checked' });
    expect(journal.inDoubtCalls()).toEqual([]);
    await expect(journal.resolve({ callId: 'c1', resolution })).rejects.toMatchObject({
      reason: 'not_in_doubt',
    });
    await journal.close();
    const tools = ledgerTools();
    const calls = [proposed('c1', 'charge', { amount: 5 })];
    const [result] = await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    expect(result).toMatchObject(expected);
    expect(tools.charge.callCount).toBe(runs);
    // Once resolved and answered, it is answered the same again.
    const [again] = await journaledTurn({ store, dispatcher: tools.dispatcher, calls });
    expect(again?.status).toBe(expected.status);
    expect(tools.charge.callCount).toBe(runs);
  });

  it('refuses to resolve a call that is not in the run', async () => {
    const { store } = freshStore();
    const journal = await openRunJournal({ store, runId: 'run-1' });
    await expect(journal.resolve({ callId: 'nope', resolution: 'done' })).rejects.toSatisfy(
      (error) => JournalDecisionError.isInstance(error) && error.reason === 'unknown_call',
    );
    await journal.close();
  });
});

describe('the idempotency key across retries', () => {
  it('is the same for every attempt of a call, with a journal and without', async () => {
    const { store } = freshStore();
    const overloaded = Object.assign(new Error('overloaded'), { status: 503 });
    const flaky = recordingTool({
      name: 'upsert',
      safety: { sideEffectLevel: 'workspace_write', idempotent: true, destructive: false },
      retry: { maxAttempts: 3, initialDelayMs: 0, jitter: false },
    })
      .once({ type: 'throw', error: overloaded })
      .respondsWith((call) => call.runtime.idempotencyKey);
    const dispatcher = createDispatcher({ registry: createToolRegistry([flaky.tool]) });
    const calls = [proposed('c1', 'upsert', { id: 1 })];
    const [journaled] = await journaledTurn({ store, dispatcher, calls });
    expect(journaled).toMatchObject({ ok: true, attempts: 2 });
    flaky.once({ type: 'throw', error: overloaded });
    const [bare] = await dispatchTurn(calls, { dispatcher, turn: { runId: 'run-2' } });
    expect(bare).toMatchObject({ ok: true, attempts: 2 });
    const keys = flaky.calls.map((call) => call.runtime.idempotencyKey);
    expect(keys).toHaveLength(4);
    expect([keys[1], journaled?.result]).toEqual([keys[0], keys[0]]);
    // Without a journal the key is derived from the run and the call: the same for each attempt.
    expect([keys[3], bare?.result]).toEqual([keys[2], keys[2]]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
