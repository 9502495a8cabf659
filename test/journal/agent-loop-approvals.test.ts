import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/executors.js';
import { agentLoop, createToolRegistry, defineTool } from '../../src/index.js';
import { decideApproval, listPendingApprovals, openRunJournal } from '../../src/journal/index.js';
import { deferred } from '../../src/testing/index.js';
import { ORDER_PLAN, orderTools, planModel } from '../fixtures/journal/orders.js';
import { freshStore } from './support.js';

describe('agentLoop with durable approvals', () => {
  it('ends interrupted with its pending approvals, and runs each approved call once on resume', async () => {
    const { store, directory } = freshStore();
    const ledger = join(directory, '..', 'ledger.txt');
    const markers = join(directory, '..');
    async function run() {
      const journal = await openRunJournal({ store, runId: 'orders', approvals: true });
      try {
        return await agentLoop({
          task: 'record three orders',
          model: planModel(ORDER_PLAN),
          tools: orderTools(ledger, markers),
          journal,
        });
      } finally {
        await journal.close();
      }
    }
    const first = await run();
    expect(first.status).toBe('interrupted');
    expect(first.pendingApprovals.map((pending) => pending.arguments)).toEqual([{ order: 1 }]);

    // Approved from another process; the resumed run does order 1 and stops at orders 2 and 3.
    await decideApproval(store, 'orders', {
      callId: first.pendingApprovals[0]!.callId,
      decision: 'approved',
    });
    const second = await run();
    expect(second.status).toBe('interrupted');
    const pending = await listPendingApprovals(store);
    expect(pending.map((each) => each.arguments)).toEqual([{ order: 2 }, { order: 3 }]);
    for (const each of pending) {
      await decideApproval(store, 'orders', {
        callId: each.callId,
        key: each.key,
        decision: each.arguments.order === 2 ? 'approved' : 'denied',
        reason: 'order 3 is a duplicate',
      });
    }
    const third = await run();
    expect(third.status).toBe('completed');
    expect(third.results.map((result) => result.errorCategory ?? result.status)).toEqual([
      'ok',
      'ok',
      'consent_denied',
    ]);
    // A fourth run replays everything: nothing runs again.
    const fourth = await run();
    expect(fourth.status).toBe('completed');
    const orders = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
    expect(orders.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'record_order 1',
      'record_order 2',
    ]);
  });
});

describe('agentLoop: a graceful interrupt', () => {
  it('lets the running call finish, records it, and a resumed run does not run it again', async () => {
    const { store } = freshStore();
    const started = deferred<void>();
    const release = deferred<void>();
    let runs = 0;
    const charge = defineTool<{ order: number }, string>({
      name: 'record_order',
      description: 'record',
      inputSchema: {
        type: 'object',
        properties: { order: { type: 'integer' } },
        required: ['order'],
      },
      safety: { sideEffectLevel: 'network' },
      handler: async ({ order }, runtime) => {
        runs += 1;
        started.resolve();
        await release.promise;
        return `recorded ${order}, aborted: ${runtime.signal.aborted}`;
      },
    });
    const tools = createToolRegistry([charge]);
    const interrupt = new AbortController();
    const journal = await openRunJournal({ store, runId: 'r' });
    const run = agentLoop({
      task: 'orders',
      model: planModel(ORDER_PLAN),
      tools,
      journal,
      interrupt: interrupt.signal,
    });
    await started.promise;
    interrupt.abort();
    release.resolve();
    const stopped = await run;
    await journal.close();
    expect(stopped.status).toBe('cancelled');
    expect(stopped.results.map((result) => result.result)).toEqual(['recorded 1, aborted: false']);
    const again = await openRunJournal({ store, runId: 'r' });
    const resumed = await agentLoop({
      task: 'orders',
      model: planModel(ORDER_PLAN),
      tools,
      journal: again,
    });
    await again.close();
    expect(resumed.status).toBe('completed');
    expect(resumed.replayed).toEqual({ modelTurns: 1, toolCalls: 1 });
    expect(runs).toBe(3);
  });
});

describe('agentLoop without a journal: a call its executor reports in doubt', () => {
  it('stops the run in_doubt and lists the call', async () => {
    const lost: Executor = {
      name: 'queue',
      execute: async () => ({
        ok: false,
        error: new Error('lost'),
        executorFailure: { message: 'the job vanished', inDoubt: true },
      }),
    };
    const charge = defineTool({
      name: 'record_order',
      description: 'record',
      inputSchema: { type: 'object', properties: { order: { type: 'integer' } } },
      safety: { sideEffectLevel: 'network' },
      executor: { kind: 'queue' },
    });
    const run = await agentLoop({
      task: 'orders',
      model: planModel(ORDER_PLAN),
      tools: createToolRegistry([charge]),
      dispatcher: { executors: [lost] },
    });
    expect(run.status).toBe('in_doubt');
    expect(run.iterations).toBe(1);
    expect(run.inDoubt).toEqual([
      expect.objectContaining({ toolName: 'record_order', reason: 'the job vanished' }),
    ]);
    expect(run.results[0]).toMatchObject({ status: 'in_doubt', errorCategory: 'in_doubt' });
  });
});
