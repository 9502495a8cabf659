import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortLink,
  cancellationOf,
  isCancellation,
  linkSignals,
  turnCancellationOf,
} from '../src/cancellation.js';
import {
  CancelledError,
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchStreamedTurn,
  dispatchTurn,
  streamTurn,
  ToolTimeoutError,
} from '../src/index.js';
import type { ToolCallDelta } from '../src/streams/index.js';

describe('cancellationOf: the one timeout rule', () => {
  it('keeps a tool timeout a timeout and a cancellation as it is', () => {
    const timeout = new ToolTimeoutError('slow', 5);
    const cancelled = new CancelledError('stop');
    expect(cancellationOf(timeout)).toBe(timeout);
    expect(cancellationOf(cancelled)).toBe(cancelled);
  });

  it('makes any other reason a CancelledError with the reason as its cause', () => {
    const reason = new Error('user pressed stop');
    const error = cancellationOf(reason);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error.message).toBe('user pressed stop');
    expect((error as CancelledError).reason).toBe(reason);
    expect(cancellationOf('why', 'custom text').message).toBe('custom text');
    // AbortSignal.timeout's reason is the caller's deadline, not a tool's time limit.
    expect(cancellationOf(AbortSignal.timeout(0).reason)).toBeInstanceOf(CancelledError);
  });

  it('gives a turn a CancelledError even for a tool timeout, keeping it as the cause', () => {
    const timeout = new ToolTimeoutError('slow', 5);
    const error = turnCancellationOf(timeout);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error.reason).toBe(timeout);
    expect(turnCancellationOf(undefined).message).toBe('the turn was cancelled');
  });

  it('recognises cancellations that must propagate', () => {
    const controller = new AbortController();
    const reason = { any: 'value' };
    controller.abort(reason);
    expect(isCancellation(new CancelledError())).toBe(true);
    expect(isCancellation(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isCancellation(reason, controller.signal)).toBe(true);
    expect(isCancellation(new Error('boom'), controller.signal)).toBe(false);
    expect(isCancellation(new ToolTimeoutError('t', 1))).toBe(false);
  });
});

describe('AbortLink', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts when any parent does, with the parent reason as a cancellation', () => {
    const first = new AbortController();
    const second = new AbortController();
    const link = linkSignals([first.signal, undefined, second.signal]);
    const seen: unknown[] = [];
    link.signal.addEventListener('abort', () => seen.push(link.signal.reason));
    second.abort(new Error('second'));
    expect(link.aborted).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(CancelledError);
    expect((seen[0] as CancelledError).message).toBe('second');
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
  });

  it('starts aborted when a parent already is', async () => {
    const reason = new CancelledError('already');
    const link = new AbortLink(AbortSignal.abort(reason));
    expect(link.aborted).toBe(true);
    expect(link.signal.reason).toBe(reason);
    await expect(link.whenAborted()).rejects.toBe(reason);
  });

  it('aborts with its timeout reason when the time limit is spent, armed late when deferred', () => {
    vi.useFakeTimers();
    const timeout = new ToolTimeoutError('slow', 10);
    const link = new AbortLink(undefined, {
      timeoutMs: 10,
      timeoutReason: () => timeout,
      deferTimeout: true,
    });
    expect(link.abortable).toBe(true);
    vi.advanceTimersByTime(50);
    expect(link.aborted).toBe(false);
    link.armTimeout();
    vi.advanceTimersByTime(9);
    expect(link.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(link.reason).toBe(timeout);
  });

  it('removes its listeners and its timer on dispose, and never calls onAbort afterwards', () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const onAbort = vi.fn();
    const link = new AbortLink(parent.signal, { timeoutMs: 5, onAbort });
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    link.dispose();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    parent.abort();
    expect(link.aborted).toBe(false);
    expect(onAbort).not.toHaveBeenCalled();
  });

  it('makes no AbortController until its signal is read', () => {
    const counted = countAbortControllers();
    try {
      const link = new AbortLink(undefined);
      link.abort(new CancelledError('mine'));
      expect(counted.made).toBe(0);
      expect(link.signal.aborted).toBe(true);
      expect(counted.made).toBe(1);
    } finally {
      counted.restore();
    }
  });
});

const add = defineTool<{ a: number; b: number }, number>({
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  safety: { readOnly: true },
  handler: ({ a, b }) => a + b,
});
/** Reads its signal, as a tool that passes it on to `fetch` would. */
const watch = defineTool<Record<string, never>, boolean>({
  name: 'watch',
  description: 'Reports whether its call was cancelled',
  inputSchema: { type: 'object' },
  safety: { readOnly: true },
  handler: (_args, runtime) => runtime.signal.aborted,
});
const dispatcher = createDispatcher({ registry: createToolRegistry([add, watch]) });
const calls = [
  { id: 'c0', name: 'add', arguments: '{"a":1,"b":2}' },
  { id: 'c1', name: 'watch', arguments: '{}' },
];

async function* deltasOf(): AsyncGenerator<ToolCallDelta> {
  for (const [key, call] of calls.entries()) {
    yield { type: 'call_start', key: String(key), id: call.id, name: call.name };
    yield { type: 'call_arguments', key: String(key), fragment: call.arguments };
    yield { type: 'call_end', key: String(key) };
  }
  yield { type: 'finish', reason: 'tool_calls', safe: true };
}

const RUNS = 10_000;

describe('a long-lived signal across many turns', () => {
  it.each([
    [
      'dispatchTurn',
      async (signal: AbortSignal) => (await dispatchTurn(calls, { dispatcher, signal })).length,
    ],
    [
      'streamTurn',
      async (signal: AbortSignal) => {
        let count = 0;
        for await (const _ of streamTurn(calls, { dispatcher, signal })) count += 1;
        return count;
      },
    ],
    [
      'dispatchStreamedTurn',
      async (signal: AbortSignal) =>
        (await dispatchStreamedTurn({ deltas: deltasOf(), dispatcher, signal })).results.length,
    ],
  ])(
    '%s leaves no listener behind and no MaxListenersExceededWarning after 10 000 turns',
    async (_name, run) => {
      const caller = new AbortController();
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        for (let turn = 0; turn < RUNS; turn += 1) {
          expect(await run(caller.signal)).toBe(2);
        }
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('warning', onWarning);
      }
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual(
        [],
      );
    },
    120_000,
  );
});

describe('AbortControllers per streamed call', () => {
  it('makes none for calls of a turn that no signal or time limit governs', async () => {
    const counted = countAbortControllers();
    try {
      const results = await dispatchTurn([calls[0]!, { ...calls[0]!, id: 'c2' }], { dispatcher });
      expect(results.map((result) => result.result)).toEqual([3, 3]);
      expect(counted.made).toBe(0);
    } finally {
      counted.restore();
    }
  });

  it('makes at most one per call in a streamed turn with a caller signal', async () => {
    const caller = new AbortController();
    const counted = countAbortControllers();
    try {
      const turn = await dispatchStreamedTurn({
        deltas: deltasOf(),
        dispatcher,
        signal: caller.signal,
      });
      expect(turn.results.map((result) => result.result)).toEqual([3, false]);
      // One for the turn (its calls share it) and one for the call that read its signal.
      expect(counted.made).toBeLessThanOrEqual(turn.results.length);
      expect(counted.made).toBe(2);
    } finally {
      counted.restore();
    }
  });
});

/** Counts `new AbortController()` while installed. */
function countAbortControllers() {
  const Original = globalThis.AbortController;
  const counted = { made: 0, restore: () => (globalThis.AbortController = Original) };
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      counted.made += 1;
    }
  };
  return counted;
}
