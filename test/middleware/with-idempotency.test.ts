import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { CancelledError, InvalidOptionError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import {
  createMemoryIdempotencyStore,
  type IdempotencyStore,
} from '../../src/middleware/idempotency-store.js';
import {
  type IdempotencyKey,
  type IdempotencyOptions,
  withIdempotency,
} from '../../src/middleware/with-idempotency.js';
import { deferred } from '../../src/testing/deferred.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { manualClock } from '../support/manual-clock.js';
import { failedResult, fakeCall, okResult, recordingNext, unknownToolCall } from './fixtures.js';

const byText: IdempotencyKey = (call) => String(call.toolArgs.text ?? '');
const callWith = (text: string, callId: string, emitOrder = 0, signal?: AbortSignal) => {
  const base = fakeCall();
  return fakeCall({ toolArgs: { text }, callId, turn: { ...base.turn, emitOrder }, signal });
};

function optionError(key: unknown, options?: unknown): InvalidOptionError {
  try {
    withIdempotency(key as IdempotencyKey, options as IdempotencyOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('withIdempotency options', () => {
  const store = createMemoryIdempotencyStore();
  it.each([
    ['key', 'text', undefined],
    ['ttlMs', byText, { ttlMs: -1 }],
    ['namespace', byText, { namespace: 3 }],
    ['maxEntries', byText, { maxEntries: 0 }],
    ['maxEntries', byText, { maxEntries: 1.5 }],
    ['now', byText, { now: 'clock' }],
    ['store', byText, { store: { get: async () => undefined } }],
    ['maxEntries', byText, { store, maxEntries: 10 }],
    ['now', byText, { store, now: () => 0 }],
  ])('rejects a bad %s at construction', (option, key, options) => {
    expect(optionError(key, options).option).toBe(option);
  });

  it('rejects a bad maxEntries on the memory store', () => {
    expect(() => createMemoryIdempotencyStore({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('withIdempotency', () => {
  it('runs a first call and reuses its result for the next call with the same key', async () => {
    const next = recordingNext();
    const layer = withIdempotency(byText);
    const first = await layer(callWith('a', 'c1'), next);
    const second = await layer(callWith('a', 'c2', 4), next);
    expect(next.calls).toHaveLength(1);
    expect(first.audit?.layers).toEqual([{ name: 'with_idempotency', status: 'miss', key: 'a' }]);
    expect(second).toMatchObject({
      ok: true,
      result: 'done',
      toolCallId: 'c2',
      emitOrder: 4,
      arguments: { text: 'a' },
      executionDurationMs: null,
    });
    expect(second.audit).toEqual({
      layers: [{ name: 'with_idempotency', status: 'hit', key: 'a', sourceCallId: 'c1' }],
    });
  });

  it('stores a frozen copy without audit and never hands it out as is', async () => {
    const store = createMemoryIdempotencyStore();
    const layer = withIdempotency(byText, { store, namespace: 'ns' });
    const next = recordingNext((call) => ({ ...okResult(call), audit: { summary: 'inner' } }));
    await layer(callWith('a', 'c1'), next);
    const stored = await store.get('ns:a');
    expect(Object.isFrozen(stored)).toBe(true);
    expect(stored?.audit).toBeUndefined();
    const hit = await layer(callWith('a', 'c2'), next);
    expect(hit).not.toBe(stored);
    expect(stored?.toolCallId).toBe('c1');
  });

  it('does not store failed results', async () => {
    const next = recordingNext((call) => failedResult(call));
    const layer = withIdempotency(byText);
    await layer(callWith('a', 'c1'), next);
    const again = await layer(callWith('a', 'c2'), next);
    expect(next.calls).toHaveLength(2);
    expect(again.audit?.layers?.[0]?.status).toBe('miss');
  });

  it('forgets results after ttlMs', async () => {
    const clock = manualClock();
    const next = recordingNext();
    const layer = withIdempotency(byText, { ttlMs: 1000, now: clock.now });
    await layer(callWith('a', 'c1'), next);
    clock.advance(999);
    expect((await layer(callWith('a', 'c2'), next)).audit?.layers?.[0]?.status).toBe('hit');
    clock.advance(1);
    expect((await layer(callWith('a', 'c3'), next)).audit?.layers?.[0]?.status).toBe('miss');
    expect(next.calls).toHaveLength(2);
  });

  it('evicts the least recently used entry past maxEntries', async () => {
    const next = recordingNext();
    const layer = withIdempotency(byText, { maxEntries: 2 });
    await layer(callWith('a', '1'), next);
    await layer(callWith('b', '2'), next);
    await layer(callWith('a', '3'), next); // touches a
    await layer(callWith('c', '4'), next); // evicts b
    expect((await layer(callWith('a', '5'), next)).audit?.layers?.[0]?.status).toBe('hit');
    expect((await layer(callWith('b', '6'), next)).audit?.layers?.[0]?.status).toBe('miss');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('no key');
      },
    ],
    ['returns an empty key', () => ''],
    ['returns null', () => null],
  ])('runs without the layer when the key function %s', async (_label, key) => {
    const next = recordingNext();
    const layer = withIdempotency(key as IdempotencyKey);
    const result = await layer(callWith('a', 'c1'), next);
    await layer(callWith('a', 'c2'), next);
    expect(next.calls).toHaveLength(2);
    expect(result.audit).toBeUndefined();
  });

  it('runs a call the executor will refuse without the layer', async () => {
    const next = recordingNext();
    const result = await withIdempotency(() => 'k')(unknownToolCall(), next);
    expect(result.audit).toBeUndefined();
  });

  it('treats a failing store as a miss and says so', async () => {
    const broken: IdempotencyStore = {
      get: () => {
        throw new Error('store down');
      },
      set: async () => {
        throw new Error('store full');
      },
      delete: async () => {},
    };
    const next = recordingNext();
    const result = await withIdempotency(byText, { store: broken })(callWith('a', 'c1'), next);
    expect(result.ok).toBe(true);
    expect(result.audit?.layers).toEqual([
      { name: 'with_idempotency', status: 'miss', key: 'a', storeError: 'store full' },
    ]);
  });
});

describe('withIdempotency single flight', () => {
  function gatedNext() {
    const gates: ReturnType<typeof deferred<ToolCallResult>>[] = [];
    const next = recordingNext((call: ToolCallEnvelope) => {
      const gate = deferred<ToolCallResult>();
      gates.push(gate);
      return gate.promise.then((result) => ({ ...result, toolCallId: call.callId }));
    });
    return { next, gates };
  }

  it('runs concurrent calls with one key once and shares the result', async () => {
    const { next, gates } = gatedNext();
    const layer = withIdempotency(byText);
    const pending = ['c1', 'c2', 'c3'].map((id, index) => layer(callWith('a', id, index), next));
    await settleUntil(() => gates.length === 1);
    gates[0]?.resolve(okResult(callWith('a', 'c1'), 'shared value'));
    const [leader, ...joiners] = await Promise.all(pending);
    expect(next.calls).toHaveLength(1);
    expect(leader?.audit?.layers?.[0]?.status).toBe('miss');
    expect(joiners.map((result) => [result.toolCallId, result.emitOrder, result.result])).toEqual([
      ['c2', 1, 'shared value'],
      ['c3', 2, 'shared value'],
    ]);
    expect(joiners[0]?.audit?.layers).toEqual([
      { name: 'with_idempotency', status: 'shared', key: 'a', sourceCallId: 'c1' },
    ]);
  });

  it('runs the waiting call afresh when the shared execution fails', async () => {
    const { next, gates } = gatedNext();
    const layer = withIdempotency(byText);
    const first = layer(callWith('a', 'c1'), next);
    const second = layer(callWith('a', 'c2'), next);
    await settleUntil(() => gates.length === 1);
    gates[0]?.resolve(failedResult(callWith('a', 'c1')));
    expect((await first).ok).toBe(false);
    await settleUntil(() => gates.length === 2);
    gates[1]?.resolve(okResult(callWith('a', 'c2')));
    const result = await second;
    expect(result.ok).toBe(true);
    expect(result.audit?.layers?.[0]?.status).toBe('miss');
    expect(next.calls.map((call) => call.callId)).toEqual(['c1', 'c2']);
  });

  it('takes over when the shared execution is cancelled', async () => {
    const { next, gates } = gatedNext();
    const layer = withIdempotency(byText);
    const first = layer(callWith('a', 'c1'), next);
    const second = layer(callWith('a', 'c2'), next);
    await settleUntil(() => gates.length === 1);
    gates[0]?.reject(new CancelledError('turn 1 cancelled'));
    await expect(first).rejects.toSatisfy((error) => CancelledError.isInstance(error));
    await settleUntil(() => gates.length === 2);
    gates[1]?.resolve(okResult(callWith('a', 'c2')));
    expect((await second).ok).toBe(true);
  });

  it('stops waiting when the waiting call is cancelled', async () => {
    const { next, gates } = gatedNext();
    const layer = withIdempotency(byText);
    const controller = new AbortController();
    const first = layer(callWith('a', 'c1'), next);
    const second = layer(callWith('a', 'c2', 1, controller.signal), next);
    controller.abort();
    await expect(second).rejects.toSatisfy((error) => CancelledError.isInstance(error));
    gates[0]?.resolve(okResult(callWith('a', 'c1')));
    expect((await first).ok).toBe(true);
  });

  it('marks calls that joined a cache lookup as hits', async () => {
    const store = createMemoryIdempotencyStore();
    const layer = withIdempotency(byText, { store, namespace: 'n' });
    await store.set('n:a', okResult(callWith('a', 'c0')), 60_000);
    const results = await Promise.all([
      layer(callWith('a', 'c1'), recordingNext()),
      layer(callWith('a', 'c2'), recordingNext()),
    ]);
    expect(results.map((result) => [result.toolCallId, result.audit?.layers?.[0]?.status])).toEqual(
      [
        ['c1', 'hit'],
        ['c2', 'hit'],
      ],
    );
  });

  it('gives each dispatched call its own id through a real dispatcher', async () => {
    const gate = deferred<void>();
    let runs = 0;
    const registry = createToolRegistry([
      {
        name: 'lookup',
        description: 'l',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        safety: { readOnly: true },
        handler: async (args: { q?: string }) => {
          runs += 1;
          await gate.promise;
          return `answer to ${args.q}`;
        },
      },
    ]);
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withIdempotency((call) => String(call.toolArgs.q))]),
    });
    const pending = [0, 1, 2].map((emitOrder) =>
      dispatcher.dispatch(
        { id: `c${emitOrder}`, name: 'lookup', arguments: '{"q":"x"}' },
        { emitOrder },
      ),
    );
    await settleUntil(() => runs === 1);
    gate.resolve();
    const results = await Promise.all(pending);
    expect(runs).toBe(1);
    expect(results.map((result) => [result.toolCallId, result.emitOrder, result.result])).toEqual([
      ['c0', 0, 'answer to x'],
      ['c1', 1, 'answer to x'],
      ['c2', 2, 'answer to x'],
    ]);
  });
});

describe('createMemoryIdempotencyStore', () => {
  it('deletes entries and reports its size', async () => {
    const store = createMemoryIdempotencyStore();
    await store.set('k', okResult(fakeCall()), 1000);
    expect(store.size).toBe(1);
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
    expect(store.size).toBe(0);
  });
});

/** Lets queued promise callbacks run until `condition` holds (no timers involved). */
async function settleUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !condition(); turn += 1) await Promise.resolve();
  expect(condition()).toBe(true);
}
