import { describe, expect, it } from 'vitest';
import { type PendingCall, packBatch, pendingCall } from '../../src/actors/worker-batch.js';
import { batchOf, readCall } from '../../src/actors/worker-protocol.js';
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
