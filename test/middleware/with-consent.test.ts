import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCaller } from '../../src/dispatch/tool-caller.js';
import { CancelledError, InvalidOptionError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import {
  type ConsentDecision,
  type ConsentOptions,
  type ConsentPrompt,
  needsConsent,
  withConsent,
} from '../../src/middleware/with-consent.js';
import { withRequiredReason } from '../../src/middleware/with-required-reason.js';
import { deferred } from '../../src/testing/deferred.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { closedSchema, fakeCall, recordingNext, unknownToolCall } from './fixtures.js';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);
const now = () => AT;
const writeCall = (overrides: Partial<ToolCallEnvelope> = {}) =>
  fakeCall({ toolName: 'write', safety: { sideEffectLevel: 'workspace_write' }, ...overrides });
const atOrder = (emitOrder: number, signal?: AbortSignal) => {
  const base = writeCall();
  return writeCall({ callId: `c${emitOrder}`, turn: { ...base.turn, emitOrder }, signal });
};

function optionError(prompt: unknown, options?: unknown): InvalidOptionError {
  try {
    withConsent(prompt as ConsentPrompt, options as ConsentOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('withConsent options', () => {
  it.each([
    ['prompt', 'yes', undefined],
    ['when', () => true, { when: 'always' }],
    ['serialize', () => true, { serialize: 'no' }],
    ['decidedBy', () => true, { decidedBy: '' }],
    ['now', () => true, { now: 5 }],
  ])('rejects a bad %s at construction', (option, prompt, options) => {
    expect(optionError(prompt, options).option).toBe(option);
  });
});

describe('withConsent decisions', () => {
  async function decide(answer: ConsentPrompt, call = writeCall()) {
    const next = recordingNext();
    const result = await withConsent(answer, { now, serialize: false })(call, next);
    return { result, ran: next.calls.length > 0 };
  }

  it('runs an approved call and records who decided and when', async () => {
    const { result, ran } = await decide(() => true);
    expect(ran).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.audit).toEqual({
      consent: {
        decision: 'approved',
        decidedBy: 'with_consent',
        decidedAt: new Date(AT).toISOString(),
      },
      layers: [{ name: 'with_consent', status: 'approved' }],
    });
  });

  it('runs a call on any decision but denied, recording the decision as the layer status', async () => {
    const { result, ran } = await decide(async () => ({ decision: 'auto', decidedBy: 'policy' }));
    expect(ran).toBe(true);
    expect(result.audit?.consent).toMatchObject({ decision: 'auto', decidedBy: 'policy' });
    expect(result.audit?.layers).toEqual([{ name: 'with_consent', status: 'auto' }]);
  });

  it('refuses a false answer with consent_denied and a typed denial', async () => {
    const { result, ran } = await decide(() => false);
    expect(ran).toBe(false);
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'consent_denied',
      error: 'consent denied by middleware',
      executor: null,
    });
    expect(result.denial).toMatchObject({ gate: 'approval_policy', retryable: false });
    expect(result.audit).toEqual({
      consent: {
        decision: 'denied',
        decidedBy: 'with_consent',
        decidedAt: new Date(AT).toISOString(),
      },
      layers: [{ name: 'with_consent', status: 'denied' }],
    });
  });

  it('uses the reason of a denial as the error the model reads', async () => {
    const { result } = await decide(() => ({
      decision: 'denied',
      reason: 'not on a Friday',
      decidedBy: 'ana',
    }));
    expect(result.error).toBe('not on a Friday');
    expect(result.observation).toContain('not on a Friday');
    expect(result.audit?.consent).toMatchObject({ decidedBy: 'ana', reason: 'not on a Friday' });
  });

  it.each([
    ['an object without a decision', { reason: 'hm' }],
    ['an empty decision', { decision: '' }],
    ['a non-string decision', { decision: 1 }],
    ['a refusal in other words', { decision: 'Rejected' }],
    ['a refusal in capitals', { decision: 'DENIED' }],
    ['a string', 'yes'],
    ['undefined', undefined],
  ])('denies %s', async (_label, answer) => {
    const { result, ran } = await decide(() => answer as unknown as ConsentDecision);
    expect(ran).toBe(false);
    expect(result.errorCategory).toBe('consent_denied');
    expect(result.audit?.consent).toMatchObject({ decision: 'denied' });
  });

  it('denies when the prompt throws, with the error text and an approval_unavailable gate', async () => {
    const { result, ran } = await decide(() => {
      throw new Error('the approval UI is closed');
    });
    expect(ran).toBe(false);
    expect(result.error).toBe('the approval UI is closed');
    expect(result.denial?.gate).toBe('approval_unavailable');
    expect(result.audit?.consent).toMatchObject({
      decision: 'denied',
      reason: 'the approval UI is closed',
    });
  });

  it('lets a cancellation thrown by the prompt propagate', async () => {
    const pending = decide(() => {
      throw new CancelledError('user left');
    });
    await expect(pending).rejects.toSatisfy((error) => CancelledError.isInstance(error));
  });

  it('uses the configured decidedBy', async () => {
    const result = await withConsent(() => true, { decidedBy: 'ops-bot', now })(
      writeCall(),
      recordingNext(),
    );
    expect(result.audit?.consent).toMatchObject({ decidedBy: 'ops-bot' });
  });
});

describe('withConsent: which calls are asked about', () => {
  it('asks about destructive or confirmation-required tools by default, not read-only ones', () => {
    expect(needsConsent(fakeCall({ safety: { readOnly: true } }))).toBe(false);
    expect(needsConsent(fakeCall({ safety: { readOnly: true, requiresConfirmation: true } }))).toBe(
      true,
    );
    expect(needsConsent(fakeCall({ safety: {} }))).toBe(true);
    expect(
      needsConsent(
        fakeCall({ safety: { sideEffectLevel: 'workspace_write', destructive: false } }),
      ),
    ).toBe(false);
    expect(needsConsent(fakeCall({ annotations: {} }))).toBe(true);
  });

  it('runs a call that needs no consent without asking or recording', async () => {
    let asked = 0;
    const next = recordingNext();
    const result = await withConsent(() => {
      asked += 1;
      return false;
    })(fakeCall({ safety: { readOnly: true } }), next);
    expect(asked).toBe(0);
    expect(next.calls).toHaveLength(1);
    expect(result.audit).toBeUndefined();
  });

  it('asks about every call with when: () => true', async () => {
    const result = await withConsent(() => false, { when: () => true })(
      fakeCall({ safety: { readOnly: true } }),
      recordingNext(),
    );
    expect(result.errorCategory).toBe('consent_denied');
  });

  it('never asks about a call the executor will refuse, and keeps it from running', async () => {
    let asked = 0;
    const registry = createToolRegistry([
      { name: 'write', description: 'w', inputSchema: closedSchema(), handler: () => 'written' },
    ]);
    const rename: ToolCaller = (call, next) => next({ ...call, toolName: 'write' });
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withConsent(() => {
          asked += 1;
          return true;
        }),
        rename,
      ]),
    });
    const result = await dispatcher.dispatch({ name: 'wrte', arguments: '{}' });
    expect(asked).toBe(0);
    // A layer below renamed the unknown tool to a real one: still refused, never run unasked.
    expect(result).toMatchObject({ status: 'policy_blocked', errorCategory: 'permission_denied' });
    const plain = await withConsent(() => true)(unknownToolCall(), recordingNext());
    expect(plain.audit).toBeUndefined();
  });

  it('asks about a call with a schema violation a layer below may repair', async () => {
    const prompts: string[] = [];
    const registry = createToolRegistry([
      {
        name: 'write',
        description: 'w',
        inputSchema: closedSchema('path'),
        handler: () => 'written',
      },
    ]);
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withConsent((call) => {
          prompts.push(call.toolName);
          return false;
        }),
        withRequiredReason().caller,
      ]),
    });
    // `reason` is not in the closed schema, so the call is invalid on arrival; the reason layer
    // would strip it and the call would run: consent must not be skipped.
    const result = await dispatcher.dispatch({
      name: 'write',
      arguments: '{"path":"a","reason":"x"}',
    });
    expect(prompts).toEqual(['write']);
    expect(result.errorCategory).toBe('consent_denied');
  });
});

describe('withConsent asks one question at a time, in planner order', () => {
  function gatedPrompt() {
    const asked: number[] = [];
    const started = new Map<number, ReturnType<typeof deferred<void>>>();
    const answers = new Map<number, ReturnType<typeof deferred<boolean>>>();
    let active = 0;
    let maxActive = 0;
    const gate = <T>(map: Map<number, ReturnType<typeof deferred<T>>>, order: number) => {
      let entry = map.get(order);
      if (entry === undefined) {
        entry = deferred<T>();
        map.set(order, entry);
      }
      return entry;
    };
    const prompt: ConsentPrompt = async (call) => {
      const order = call.turn.emitOrder;
      asked.push(order);
      active += 1;
      maxActive = Math.max(maxActive, active);
      gate(started, order).resolve();
      try {
        return await gate(answers, order).promise;
      } finally {
        active -= 1;
      }
    };
    return {
      prompt,
      asked,
      maxActive: () => maxActive,
      started: (order: number) => gate(started, order).promise,
      answer: (order: number, value = true) => gate(answers, order).resolve(value),
    };
  }

  it('orders sibling calls that arrive together by emitOrder, whatever their arrival order', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    const results = [2, 0, 1].map((order) => layer(atOrder(order), recordingNext()));
    await gates.started(0);
    expect(gates.asked).toEqual([0]);
    gates.answer(0);
    await gates.started(1);
    expect(gates.asked).toEqual([0, 1]);
    gates.answer(1, false);
    await gates.started(2);
    gates.answer(2);
    const [two, zero, one] = await Promise.all(results);
    expect(gates.asked).toEqual([0, 1, 2]);
    expect(gates.maxActive()).toBe(1);
    expect([zero?.ok, one?.ok, two?.ok]).toEqual([true, false, true]);
  });

  it('asks a call at position 0 without waiting a macrotask, and its siblings after it in order', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    let macrotaskRan = false;
    setImmediate(() => {
      macrotaskRan = true;
    });
    const results = [0, 2, 1].map((order) => layer(atOrder(order), recordingNext()));
    await gates.started(0);
    expect(macrotaskRan).toBe(false);
    for (const order of [0, 1, 2]) {
      await gates.started(order);
      gates.answer(order);
    }
    await Promise.all(results);
    expect(gates.asked).toEqual([0, 1, 2]);
    expect(gates.maxActive()).toBe(1);
  });

  it('puts a later arrival with a lower emitOrder before waiting higher ones', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    const first = layer(atOrder(1), recordingNext());
    await gates.started(1);
    const later = [layer(atOrder(3), recordingNext()), layer(atOrder(2), recordingNext())];
    gates.answer(1);
    await gates.started(2);
    gates.answer(2);
    await gates.started(3);
    gates.answer(3);
    await Promise.all([first, ...later]);
    expect(gates.asked).toEqual([1, 2, 3]);
  });

  it('does not wait for an earlier call that never reaches the gate', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    // emitOrder 0 is held elsewhere (or was refused before reaching consent): 1 and 2 go on.
    const results = [layer(atOrder(2), recordingNext()), layer(atOrder(1), recordingNext())];
    await gates.started(1);
    gates.answer(1);
    await gates.started(2);
    gates.answer(2);
    await Promise.all(results);
    expect(gates.asked).toEqual([1, 2]);
  });

  it('drops a waiting call whose signal aborts, rejecting it with CancelledError', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    const controller = new AbortController();
    const first = layer(atOrder(0), recordingNext());
    await gates.started(0);
    const dropped = layer(atOrder(1, controller.signal), recordingNext());
    const last = layer(atOrder(2), recordingNext());
    controller.abort(new Error('turn cancelled'));
    await expect(dropped).rejects.toSatisfy((error) => CancelledError.isInstance(error));
    gates.answer(0);
    await gates.started(2);
    gates.answer(2);
    await Promise.all([first, last]);
    expect(gates.asked).toEqual([0, 2]);
  });

  it('moves on when the call being asked about is cancelled, ignoring its late answer', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt);
    const controller = new AbortController();
    const next = recordingNext();
    const abandoned = layer(atOrder(0, controller.signal), next);
    const waiting = layer(atOrder(1), recordingNext());
    await gates.started(0);
    controller.abort();
    await expect(abandoned).rejects.toSatisfy((error) => CancelledError.isInstance(error));
    await gates.started(1);
    gates.answer(1);
    expect((await waiting).ok).toBe(true);
    gates.answer(0);
    expect(next.calls).toHaveLength(0);
  });

  it('rejects at once a call whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const pending = withConsent(() => true)(atOrder(0, controller.signal), recordingNext());
    await expect(pending).rejects.toSatisfy((error) => CancelledError.isInstance(error));
  });

  it('asks concurrently with serialize false', async () => {
    const gates = gatedPrompt();
    const layer = withConsent(gates.prompt, { serialize: false });
    const results = [0, 1].map((order) => layer(atOrder(order), recordingNext()));
    await Promise.all([gates.started(0), gates.started(1)]);
    expect(gates.maxActive()).toBe(2);
    gates.answer(0);
    gates.answer(1);
    await Promise.all(results);
  });

  it('orders parallel dispatches through a real dispatcher', async () => {
    const gates = gatedPrompt();
    const registry = createToolRegistry([
      { name: 'write', description: 'w', inputSchema: closedSchema(), handler: () => 'written' },
    ]);
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withConsent(gates.prompt)]),
    });
    const results = [3, 1, 2, 0].map((emitOrder) =>
      dispatcher.dispatch({ id: `c${emitOrder}`, name: 'write', arguments: '{}' }, { emitOrder }),
    );
    for (const order of [0, 1, 2, 3]) {
      await gates.started(order);
      gates.answer(order);
    }
    const settled = await Promise.all(results);
    expect(gates.asked).toEqual([0, 1, 2, 3]);
    expect(settled.map((result) => result.toolCallId)).toEqual(['c3', 'c1', 'c2', 'c0']);
  });
});
