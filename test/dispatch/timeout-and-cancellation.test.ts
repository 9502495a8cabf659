import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { CancelledError, ToolTimeoutError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { deferred } from '../../src/testing/deferred.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

describe('per-tool timeoutMs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('yields a timeout result even when the handler never settles', async () => {
    const slow = recordingTool({ name: 'slow', timeoutMs: 50 }).hangs();
    const dispatcher = createDispatcher({ registry: createToolRegistry([slow.tool]) });
    let settled = false;
    const pending = dispatcher.dispatch({ id: 'c1', name: 'slow', arguments: {} });
    void pending.then(() => {
      settled = true;
    });
    const call = await slow.nextCall();
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    expect(call.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result).toMatchObject({
      ok: false,
      status: 'timeout',
      errorCategory: 'timeout',
      toolCallId: 'c1',
      executor: 'inline',
    });
    expect(result.error).toBe('tool "slow" exceeded its time limit of 50 ms');
  });

  it('aborts the handler signal with a ToolTimeoutError reason', async () => {
    const slow = recordingTool({ name: 'slow', timeoutMs: 30 }).hangs({ untilAborted: true });
    const dispatcher = createDispatcher({ registry: createToolRegistry([slow.tool]) });
    const pending = dispatcher.dispatch({ id: 'c1', name: 'slow', arguments: {} });
    const call = await slow.nextCall();
    await vi.advanceTimersByTimeAsync(30);
    expect((await pending).status).toBe('timeout');
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBeInstanceOf(ToolTimeoutError);
    expect(ToolTimeoutError.isInstance(call.signal.reason)).toBe(true);
    expect(call.signal.reason).toMatchObject({
      code: 'SY_ERR_TOOL_TIMEOUT',
      toolName: 'slow',
      timeoutMs: 30,
    });
  });

  it('does not time out a handler that finishes in time, and clears its timer', async () => {
    const quick = recordingTool({ name: 'quick', timeoutMs: 1000 }).returns('done');
    const dispatcher = createDispatcher({ registry: createToolRegistry([quick.tool]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'quick', arguments: {} });
    expect(result.status).toBe('ok');
    expect(vi.getTimerCount()).toBe(0);
    expect(quick.lastCall?.signal.aborted).toBe(false);
  });
});

describe('turn cancellation', () => {
  it('yields cancelled without running the handler when the turn signal is already aborted, and the layers still see it', async () => {
    const tool = recordingTool({ name: 'work' });
    const layer = vi.fn((call, next) => next(call));
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: composeToolCallers([layer]),
    });
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const result = await dispatcher.dispatch(
      { id: 'c1', name: 'work', arguments: {} },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 'c1',
      error: 'user pressed stop',
    });
    expect(tool.callCount).toBe(0);
    // The layers see the call (an audit layer records its receipt); only the handler never runs.
    expect(layer).toHaveBeenCalledTimes(1);
  });

  it('never starts the handler of a call cancelled while a layer held it', async () => {
    const consentAsked = deferred();
    const consentGiven = deferred();
    const tool = recordingTool({ name: 'rm', safety: { sideEffectLevel: 'workspace_write' } });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: composeToolCallers([
        async function consent(call, next) {
          consentAsked.resolve();
          await consentGiven.promise;
          return next(call);
        },
      ]),
    });
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'rm', arguments: {} },
      { signal: controller.signal },
    );
    await consentAsked.promise;
    controller.abort();
    consentGiven.resolve();
    expect(await pending).toMatchObject({ status: 'cancelled', toolCallId: 'c1' });
    expect(tool.callCount).toBe(0);
  });

  it('never starts the handler when a layer passes a signal already aborted for time', async () => {
    const tool = recordingTool({ name: 'work' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: composeToolCallers([
        function expired(call, next) {
          return next({ ...call, signal: AbortSignal.abort(new ToolTimeoutError('work', 1)) });
        },
      ]),
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'work', arguments: {} });
    expect(result).toMatchObject({ status: 'timeout', errorCategory: 'timeout' });
    expect(tool.callCount).toBe(0);
  });

  it('yields cancelled and aborts the handler signal when the turn is aborted while it runs', async () => {
    const tool = recordingTool({ name: 'work' }).hangs({ untilAborted: true });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'work', arguments: {} },
      { signal: controller.signal },
    );
    const call = await tool.nextCall();
    expect(call.signal.aborted).toBe(false);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 'c1',
    });
    expect(call.signal.aborted).toBe(true);
    expect(CancelledError.isInstance(call.signal.reason)).toBe(true);
  });

  it('yields cancelled for a handler that ignores its signal and never settles', async () => {
    const tool = recordingTool({ name: 'stubborn' }).hangs();
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'stubborn', arguments: {} },
      { signal: controller.signal },
    );
    await tool.nextCall();
    controller.abort(new CancelledError('sibling failed'));
    expect(await pending).toMatchObject({ status: 'cancelled', error: 'sibling failed' });
  });

  it('passes a layer-side cancellation through to a cancelled result', async () => {
    const tool = recordingTool({ name: 'work' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: composeToolCallers([
        async function giveUp() {
          throw new CancelledError('the caller gave up');
        },
      ]),
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'work', arguments: {} });
    expect(result).toMatchObject({ status: 'cancelled', error: 'the caller gave up' });
    expect(tool.callCount).toBe(0);
  });

  it('treats a handler that throws an AbortError as cancelled, never as an ordinary tool error', async () => {
    const abortError = new DOMException('fetch aborted', 'AbortError');
    const tool = recordingTool({ name: 'fetcher' }).throws(abortError);
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'fetcher', arguments: {} });
    expect(result.status).toBe('cancelled');
  });

  it('lets a layer pass a narrower signal whose timeout reason becomes a timeout result', async () => {
    const tool = recordingTool({ name: 'work' }).hangs({ untilAborted: true });
    const narrow = new AbortController();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: composeToolCallers([
        function narrowing(call, next) {
          return next({ ...call, signal: narrow.signal });
        },
      ]),
    });
    const pending = dispatcher.dispatch({ id: 'c1', name: 'work', arguments: {} });
    await tool.nextCall();
    narrow.abort(new ToolTimeoutError('work', 5));
    expect(await pending).toMatchObject({ status: 'timeout', errorCategory: 'timeout' });
  });

  // A handler that answers at once needs no listener on the turn's signal; the abort is still seen.
  describe('a handler that answers at once', () => {
    /** Dispatches one call of a tool whose handler answers at once, under `controller`'s signal. */
    function dispatchQuick(
      controller: AbortController,
      handler: (signalOf: () => AbortSignal) => string,
    ) {
      const tool = defineTool({
        name: 'quick',
        description: 'Answers at once',
        inputSchema: { type: 'object', additionalProperties: false },
        handler: (_args, runtime) => handler(() => runtime.signal),
      });
      const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
      return dispatcher.dispatch(
        { id: 'c1', name: 'quick', arguments: {} },
        { signal: controller.signal },
      );
    }

    it('adds no listener to the turn signal when it does not read its own', async () => {
      const controller = new AbortController();
      const seen: number[] = [];
      const result = await dispatchQuick(controller, () => {
        seen.push(getEventListeners(controller.signal, 'abort').length);
        return 'done';
      });
      expect(result).toMatchObject({ status: 'ok', result: 'done' });
      expect(seen).toEqual([0]);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    });

    it('is cancelled when the turn aborts before it returns, read or not', async () => {
      for (const reads of [false, true]) {
        const controller = new AbortController();
        let handlerSignal: AbortSignal | undefined;
        const result = await dispatchQuick(controller, (signalOf) => {
          if (reads) handlerSignal = signalOf();
          controller.abort(new CancelledError('stopped mid-call'));
          return 'done';
        });
        expect(result).toMatchObject({ status: 'cancelled', error: 'stopped mid-call' });
        if (reads) expect(handlerSignal?.aborted).toBe(true);
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      }
    });
  });

  it('settles only the call whose turn was cancelled', async () => {
    const gate = deferred<string>();
    const tool = recordingTool({ name: 'work' }).respondsWith(() => gate.promise);
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const controller = new AbortController();
    const cancelled = dispatcher.dispatch(
      { id: 'a', name: 'work', arguments: {} },
      { signal: controller.signal },
    );
    const other = dispatcher.dispatch({ id: 'b', name: 'work', arguments: {} });
    controller.abort();
    expect((await cancelled).status).toBe('cancelled');
    gate.resolve('finished');
    expect(await other).toMatchObject({ status: 'ok', result: 'finished' });
  });
});
