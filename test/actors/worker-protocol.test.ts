import { describe, expect, it } from 'vitest';
import {
  type PendingCall,
  packBatch,
  pendingCall,
  stealFromStalled,
} from '../../src/actors/worker-batch.js';
import {
  batchOf,
  isChannelMessage,
  markPosted,
  pushOutcome,
  readCall,
  readOutcome,
  SLOT_DONE,
  SLOT_RUNNING,
  SLOT_SKIPPED,
} from '../../src/actors/worker-protocol.js';
import { workerTarget } from '../../src/actors/worker-target.js';
import type { ExecutionRequest } from '../../src/dispatch/executor.js';
import { defineTool } from '../../src/index.js';

function request(emitOrder: number, abortable: boolean, context?: unknown): ExecutionRequest {
  const tool = defineTool({
    name: context === undefined ? 'echo' : 'read_context',
    description: 'd',
    inputSchema: { type: 'object' },
    safety: { readOnly: true },
    executor: { kind: 'worker', module: 'file:///tools.mjs', export: 'echo' },
    ...(context === undefined ? {} : { injected: ['context' as const] }),
  });
  return {
    tool,
    args: { value: emitOrder, nested: { list: [1, 'two'] } },
    callId: `call_${emitOrder}`,
    turn: {
      iteration: 2,
      sessionId: 'session',
      runId: 'run',
      model: null,
      provider: null,
      emitOrder,
      maxConcurrentTools: 4,
    },
    signal: new AbortController().signal,
    whenAborted: () => new Promise<never>(() => {}),
    abortable,
    ...(emitOrder === 0 ? { idempotencyKey: 'sy-journal-key' } : {}),
    values: context === undefined ? {} : { context },
    emit: () => {},
    reportCost: () => {},
  };
}

function pending(emitOrder: number, abortable = false, context?: unknown): PendingCall {
  const call = request(emitOrder, abortable, context);
  return pendingCall(call, workerTarget(call.tool)!, 100 + emitOrder, () => {});
}

/** What a worker reads back, after the message crossed the thread boundary. */
function received(members: PendingCall[]) {
  const batch = batchOf(structuredClone(packBatch(members).message));
  return { batch, calls: members.map((_, slot) => readCall(batch.calls, slot)) };
}

describe('worker messages', () => {
  it('carry a lone call as a bare call list that reads back whole', () => {
    const lone = pending(0);
    expect(Array.isArray(packBatch([lone]).message)).toBe(true);
    const { batch, calls } = received([lone]);
    expect(calls).toEqual([
      {
        ticket: 100,
        callId: 'call_0',
        toolName: 'echo',
        module: 'file:///tools.mjs',
        exportName: 'echo',
        args: { value: 0, nested: { list: [1, 'two'] } },
        turn: { iteration: 2, sessionId: 'session', runId: 'run', emitOrder: 0 },
        idempotencyKey: 'sy-journal-key',
      },
    ]);
    expect(batch.slots).toBeUndefined();
    expect(batch.hidden).toBeUndefined();
  });

  it('give a batch of several calls shared slots, and result notices when one can be cancelled', () => {
    const quiet = received([pending(0), pending(1)]);
    expect(quiet.calls.map((call) => call.callId)).toEqual(['call_0', 'call_1']);
    expect(quiet.batch.slots).toBeInstanceOf(SharedArrayBuffer);
    expect(quiet.batch.notify).toBeUndefined();
    expect(received([pending(0), pending(1, true)]).batch.notify).toBe(true);
  });

  it('send injected values beside the calls, in slot order', () => {
    const { batch, calls } = received([pending(0), pending(1, false, { tenant: 'acme' })]);
    expect(calls.map((call) => call.toolName)).toEqual(['echo', 'read_context']);
    expect(batch.hidden).toEqual([null, { context: { tenant: 'acme' } }]);
  });
});

describe('results posted before their batch ends', () => {
  it('are our messages, and leave the batch result with nothing to settle twice', () => {
    const outcomes: unknown[] = [];
    pushOutcome(outcomes, { ok: true, value: 'a', progress: 0 });
    pushOutcome(outcomes, { ok: true, value: 'b', progress: 1 });
    expect(isChannelMessage({ type: 'results', tickets: [7, 8], outcomes })).toBe(true);
    expect(isChannelMessage({ type: 'results', tickets: 7, outcomes })).toBe(false);
    markPosted(outcomes, 0);
    expect(readOutcome(outcomes, 0)).toEqual({ ok: false, skipped: true });
    expect(readOutcome(outcomes, 1)).toEqual({ ok: true, value: 'b', progress: 1 });
  });
});

describe('stealFromStalled', () => {
  function sentBatch() {
    const members = [pending(0), pending(1), pending(2), pending(3)];
    const batch = packBatch(members);
    for (const member of members) member.batch = batch;
    return { batch, slots: batch.slots! };
  }

  it('takes the unstarted calls of a batch that finished nothing while another batch came back', () => {
    const { batch, slots } = sentBatch();
    Atomics.store(slots, 0, SLOT_RUNNING);
    expect(stealFromStalled([batch], 1)).toEqual([]); // first look
    expect(stealFromStalled([batch], 1)).toEqual([]); // nothing came back since
    const stolen = stealFromStalled([batch], 2);
    expect(stolen.map((call) => call.call.callId)).toEqual(['call_2', 'call_3']);
    expect([...slots]).toEqual([SLOT_RUNNING, 0, SLOT_SKIPPED, SLOT_SKIPPED]);
  });

  it('leaves a batch that keeps finishing calls alone', () => {
    const { batch, slots } = sentBatch();
    Atomics.store(slots, 0, SLOT_RUNNING);
    expect(stealFromStalled([batch], 1)).toEqual([]);
    Atomics.store(slots, 0, SLOT_DONE);
    Atomics.store(slots, 1, SLOT_RUNNING);
    expect(stealFromStalled([batch], 2)).toEqual([]);
  });
});
