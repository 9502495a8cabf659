import { describe, expect, it } from 'vitest';
import { mergeAudit } from '../../src/dispatch/audit.js';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../../src/dispatch/result.js';
import type { Next, ToolCaller } from '../../src/dispatch/tool-caller.js';
import { CancelledError } from '../../src/errors.js';
import {
  composeToolCallers,
  defaultToolCaller,
} from '../../src/middleware/compose-tool-callers.js';
import { withConsent } from '../../src/middleware/with-consent.js';
import { withRateLimit } from '../../src/middleware/with-rate-limit.js';
import { withTimeout } from '../../src/middleware/with-timeout.js';
import { deferred } from '../../src/testing/deferred.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import type { JsonObject } from '../../src/tools/json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { fakeCall } from './fixtures.js';

/** A layer that records entering and leaving, and adds its name to audit.layers. */
function tracing(name: string, trace: string[]): ToolCaller {
  const layer = async (call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> => {
    trace.push(name);
    const result = await next(call);
    trace.push(`${name}'`);
    return {
      ...result,
      audit: mergeAudit(result.audit, { layers: [{ name, status: result.status }] }),
    };
  };
  Object.defineProperty(layer, 'name', { value: name });
  return layer;
}

function setup(layers: ToolCaller[]) {
  const echo = recordingTool({ name: 'echo' });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([echo.tool]),
    caller: composeToolCallers(layers),
  });
  const run = (args: JsonObject = { text: 'hi' }, signal?: AbortSignal) =>
    dispatcher.dispatch({ id: 'c1', name: 'echo', arguments: args }, signal ? { signal } : {});
  return { echo, run };
}

describe('composeToolCallers order', () => {
  it("runs the first listed outermost: a, b, c, c', b', a'", async () => {
    const trace: string[] = [];
    const { echo, run } = setup([tracing('a', trace), tracing('b', trace), tracing('c', trace)]);
    echo.respondsWith(() => {
      trace.push('tool');
      return 'ok';
    });
    const result = await run();
    expect(trace).toEqual(['a', 'b', 'c', 'tool', "c'", "b'", "a'"]);
    expect(result.audit?.layers?.map((layer) => layer.name)).toEqual(['c', 'b', 'a']);
  });

  it('keeps the order when called directly with a bottom', async () => {
    const trace: string[] = [];
    const composed = composeToolCallers([tracing('a', trace), tracing('b', trace)]);
    const call = {
      toolName: 't',
      callId: 'x',
      toolArgs: {},
      turn: { emitOrder: 0 },
    } as unknown as ToolCallEnvelope;
    await composed(call, async (inner) => {
      trace.push('bottom');
      return shortCircuitResult(inner, { status: 'ok', ok: true });
    });
    expect(trace).toEqual(['a', 'b', 'bottom', "b'", "a'"]);
  });

  it('is a pass-through for an empty list and for defaultToolCaller', async () => {
    for (const caller of [composeToolCallers([]), defaultToolCaller()]) {
      const echo = recordingTool({ name: 'echo' });
      const dispatcher = createDispatcher({ registry: createToolRegistry([echo.tool]), caller });
      const result = await dispatcher.dispatch({ id: 'c1', name: 'echo', arguments: { a: 1 } });
      expect(result).toMatchObject({ ok: true, status: 'ok', result: { a: 1 } });
      expect(result.audit).toBeUndefined();
    }
  });

  it('treats a non-list as a pass-through and rejects a layer that is not a function', () => {
    expect(composeToolCallers(undefined as unknown as ToolCaller[])).toBe(defaultToolCaller());
    expect(() => composeToolCallers([tracing('a', []), 'audit' as unknown as ToolCaller])).toThrow(
      /layer 1 must be a function/,
    );
  });

  it('routes each call to the bottom of its own dispatcher when two dispatchers share a stack', async () => {
    const composed = composeToolCallers([tracing('a', [])]);
    const first = recordingTool({ name: 'echo' }).returns('first');
    const second = recordingTool({ name: 'echo' }).returns('second');
    const one = createDispatcher({ registry: createToolRegistry([first.tool]), caller: composed });
    const two = createDispatcher({ registry: createToolRegistry([second.tool]), caller: composed });
    const results = await Promise.all([
      one.dispatch({ id: '1', name: 'echo', arguments: {} }),
      two.dispatch({ id: '2', name: 'echo', arguments: {} }),
      one.dispatch({ id: '3', name: 'echo', arguments: {} }),
    ]);
    expect(results.map((result) => result.result)).toEqual(['first', 'second', 'first']);
  });
});

describe('composeToolCallers exceptions', () => {
  const throwing: Array<[string, ToolCaller]> = [
    [
      'a synchronous throw',
      function broken() {
        throw new Error('layer exploded');
      },
    ],
    [
      'a rejected promise',
      async function broken() {
        throw new Error('layer exploded');
      },
    ],
  ];

  it.each(throwing)(
    'turns %s into a tool_middleware_exception result outer layers decorate',
    async (_label, broken) => {
      const trace: string[] = [];
      const { echo, run } = setup([tracing('outer', trace), broken, tracing('never', trace)]);
      const result = await run();
      expect(result).toMatchObject({
        ok: false,
        status: 'tool_middleware_exception',
        errorCategory: 'tool_middleware_exception',
        error: 'layer exploded',
        toolCallId: 'c1',
        executor: null,
      });
      expect(result.observation).toContain('layer exploded');
      expect(result.audit?.layers).toEqual([
        expect.objectContaining({ name: 'broken', status: 'exception', error: 'layer exploded' }),
        { name: 'outer', status: 'tool_middleware_exception' },
      ]);
      expect(trace).toEqual(['outer', "outer'"]);
      expect(echo.callCount).toBe(0);
    },
  );

  it('names an anonymous throwing layer tool_caller', async () => {
    const anonymous = [
      () => {
        throw new Error('x');
      },
    ][0] as ToolCaller;
    expect(anonymous.name).toBe('');
    const { run } = setup([anonymous]);
    const result = await run();
    expect(result.audit?.layers?.[0]).toMatchObject({ name: 'tool_caller', status: 'exception' });
  });

  it('turns a throw after next into an exception result even though the tool ran', async () => {
    const { echo, run } = setup([
      async function lateFailure(call, next) {
        await next(call);
        throw new Error('post-processing failed');
      },
    ]);
    const result = await run();
    expect(result.status).toBe('tool_middleware_exception');
    expect(echo.callCount).toBe(1);
  });

  it('accepts a plain result from a layer written without async', async () => {
    const trace: string[] = [];
    const plain = ((call: ToolCallEnvelope) =>
      shortCircuitResult(call, { status: 'dry_run', ok: true })) as unknown as ToolCaller;
    const { echo, run } = setup([tracing('outer', trace), plain]);
    const result = await run();
    expect(result).toMatchObject({ ok: true, status: 'dry_run' });
    expect(result.audit?.layers).toEqual([{ name: 'outer', status: 'dry_run' }]);
    expect(echo.callCount).toBe(0);
  });

  it('yields an exception result when the stack resolves to a malformed result', async () => {
    const { run } = setup([async () => ({ status: 'ok' }) as unknown as ToolCallResult]);
    const result = await run();
    expect(result).toMatchObject({
      ok: false,
      status: 'exception',
      errorCategory: 'tool_middleware_exception',
      toolCallId: 'c1',
    });
    expect(result.error).toContain('missing a boolean `ok`');
  });

  it('yields an exception result when an uncomposed caller throws', async () => {
    const echo = recordingTool({ name: 'echo' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([echo.tool]),
      caller: () => {
        throw new Error('bare caller');
      },
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'echo', arguments: {} });
    expect(result).toMatchObject({ status: 'exception', error: 'bare caller' });
  });
});

describe('composeToolCallers cancellation', () => {
  it.each([
    [
      'a synchronous CancelledError',
      'CancelledError',
      function cancel() {
        throw new CancelledError('user stopped');
      },
    ],
    [
      'a rejected CancelledError',
      'CancelledError',
      async function cancel() {
        throw new CancelledError('user stopped');
      },
    ],
    [
      'an AbortError',
      'AbortError',
      async function cancel() {
        throw new DOMException('user stopped', 'AbortError');
      },
    ],
  ] as Array<[string, string, ToolCaller]>)(
    'propagates %s through every layer',
    async (_label, errorName, cancel) => {
      const seen: unknown[] = [];
      const observing: ToolCaller = async function observing(call, next) {
        try {
          return await next(call);
        } catch (error) {
          seen.push(error);
          throw error;
        }
      };
      const { run } = setup([observing, cancel]);
      const result = await run();
      expect(result).toMatchObject({
        status: 'cancelled',
        errorCategory: 'cancelled',
        error: 'user stopped',
        toolCallId: 'c1',
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ name: errorName, message: 'user stopped' });
    },
  );

  it('propagates a tool cancelled by its turn through the layers to a cancelled result', async () => {
    const reached: string[] = [];
    const layer: ToolCaller = async function layer(call, next) {
      try {
        return await next(call);
      } catch (error) {
        reached.push(CancelledError.isInstance(error) ? 'cancelled' : 'other');
        throw error;
      }
    };
    const { echo, run } = setup([layer]);
    echo.hangs({ untilAborted: true });
    const controller = new AbortController();
    const pending = run({}, controller.signal);
    await echo.nextCall();
    controller.abort();
    expect((await pending).status).toBe('cancelled');
    expect(reached).toEqual(['cancelled']);
  });

  it('propagates the turn signal reason itself as a cancellation', async () => {
    const reason = new Error('custom reason');
    const controller = new AbortController();
    const started = deferred();
    const rethrow: ToolCaller = async function rethrow(call) {
      started.resolve();
      await new Promise((_resolve, reject) =>
        call.signal?.addEventListener('abort', () => reject(call.signal?.reason)),
      );
      throw new Error('unreachable');
    };
    const { run } = setup([rethrow]);
    const pending = run({}, controller.signal);
    await started.promise;
    controller.abort(reason);
    expect(await pending).toMatchObject({ status: 'cancelled', error: 'custom reason' });
  });
});

describe('composeToolCallers layer powers', () => {
  it('lets a layer rewrite arguments with next({ ...call, toolArgs })', async () => {
    const { echo, run } = setup([
      function defaults(call, next) {
        return next({ ...call, toolArgs: { ...call.toolArgs, lang: 'en' } });
      },
    ]);
    const result = await run({ text: 'hi' });
    expect(echo.lastCall?.args).toEqual({ text: 'hi', lang: 'en' });
    expect(result.arguments).toEqual({ text: 'hi', lang: 'en' });
  });

  it('lets a layer short-circuit without calling next', async () => {
    const trace: string[] = [];
    const { echo, run } = setup([
      tracing('outer', trace),
      async function deny(call) {
        return shortCircuitResult(call, { status: 'consent_denied', error: 'the user said no' });
      },
      tracing('inner', trace),
    ]);
    const result = await run();
    expect(result).toMatchObject({
      ok: false,
      status: 'consent_denied',
      error: 'the user said no',
      errorCategory: 'consent_denied',
      toolCallId: 'c1',
    });
    expect(result.observation).toBe('[blocked: echo — consent_denied]\nthe user said no');
    expect(trace).toEqual(['outer', "outer'"]);
    expect(echo.callCount).toBe(0);
  });

  it('merges audit shallowly with layers concatenated innermost first', async () => {
    const attach =
      (name: string, extra: Record<string, unknown>): ToolCaller =>
      async (call, next) => {
        const result = await next(call);
        return {
          ...result,
          audit: mergeAudit(result.audit, { ...extra, layers: [{ name, status: 'ok' }] }),
        };
      };
    const { run } = setup([
      attach('outer', { summary: 'outer summary', kind: 'read' }),
      attach('middle', { consent: 'granted' }),
      attach('inner', { summary: 'inner summary' }),
    ]);
    const result = await run();
    expect(result.audit).toEqual({
      summary: 'outer summary',
      kind: 'read',
      consent: 'granted',
      layers: [
        { name: 'inner', status: 'ok' },
        { name: 'middle', status: 'ok' },
        { name: 'outer', status: 'ok' },
      ],
    });
  });

  it("never lets a layer hand back a result carrying another call's identity", async () => {
    let cached: ToolCallResult | undefined;
    const echo = recordingTool({ name: 'echo' }).returns('first answer');
    const dispatcher = createDispatcher({
      registry: createToolRegistry([echo.tool]),
      caller: composeToolCallers([
        async function cache(call, next) {
          cached ??= await next(call);
          return cached;
        },
      ]),
    });
    await dispatcher.dispatch({ id: 'c1', name: 'echo', arguments: {} });
    const second = await dispatcher.dispatch(
      { id: 'c2', name: 'echo', arguments: {} },
      { emitOrder: 5 },
    );
    expect(second).toMatchObject({ toolCallId: 'c2', emitOrder: 5, result: 'first answer' });
    // The shared result itself keeps the identity of the call that produced it.
    expect(cached?.toolCallId).toBe('c1');
    expect(echo.callCount).toBe(1);
  });
});

describe('composeToolCallers with the bundled layers between others', () => {
  it('still blames a bundled layer by name when it throws, and outer layers decorate the result', async () => {
    const trace: string[] = [];
    const brokenClock = withTimeout({
      maxMs: 1000,
      now: () => {
        throw new Error('clock broke');
      },
    });
    const { echo, run } = setup([tracing('outer', trace), brokenClock, tracing('inner', trace)]);
    const result = await run();
    expect(result).toMatchObject({
      ok: false,
      status: 'tool_middleware_exception',
      error: 'clock broke',
    });
    expect(result.audit?.layers).toEqual([
      expect.objectContaining({ name: 'with_timeout', status: 'exception' }),
      { name: 'outer', status: 'tool_middleware_exception' },
    ]);
    expect(echo.callCount).toBe(0);
  });

  it('blames a bundled layer whose inner layer rejected outside the trap', async () => {
    // A bundled layer below its neighbour: the neighbour's failures become its result first.
    const { run } = setup([
      withRateLimit({ maxCalls: 10 }),
      withTimeout({ maxMs: 1000 }),
      async function exploding() {
        throw new Error('inner exploded');
      },
    ]);
    const result = await run();
    expect(result).toMatchObject({ ok: false, status: 'tool_middleware_exception' });
    expect(result.audit?.layers?.map((layer) => layer.name)).toEqual([
      'exploding',
      'with_timeout',
      'with_rate_limit',
    ]);
  });

  it('completes a partial result of a user layer before a bundled layer above it reads it', async () => {
    const partial: ToolCaller = async function partial(call) {
      return { ok: true, status: 'ok', toolName: call.toolName } as ToolCallResult;
    };
    const { run } = setup([withRateLimit({ maxCalls: 10 }), withTimeout({ maxMs: 1000 }), partial]);
    const result = await run();
    expect(result).toMatchObject({
      ok: true,
      toolCallId: 'c1',
      renderedResult: '',
      observation: '',
      error: null,
      executor: null,
    });
    expect(result.audit?.layers?.map((layer) => layer.name)).toEqual([
      'with_timeout',
      'with_rate_limit',
    ]);
  });

  it('propagates a cancellation through bundled layers', async () => {
    const controller = new AbortController();
    const cancelling: ToolCaller = async function cancelling(call) {
      controller.abort();
      throw new CancelledError(`stopped ${call.callId}`);
    };
    const { run } = setup([
      withRateLimit({ maxCalls: 10 }),
      withTimeout({ maxMs: 1000 }),
      cancelling,
    ]);
    const result = await run({ text: 'hi' }, controller.signal);
    expect(result).toMatchObject({ ok: false, status: 'cancelled' });
  });

  it('completes what a bottom passed by hand resolves to, and blames a broken one below the layers', async () => {
    const composed = composeToolCallers([
      withRateLimit({ maxCalls: 10 }),
      withTimeout({ maxMs: 1000 }),
    ]);
    const partial = await composed(fakeCall(), async (call) => {
      return { ok: true, status: 'ok', toolName: call.toolName } as ToolCallResult;
    });
    expect(partial).toMatchObject({ ok: true, toolCallId: 'call_1', observation: '', error: null });
    expect(partial.audit?.layers?.map((layer) => layer.name)).toEqual([
      'with_timeout',
      'with_rate_limit',
    ]);
    const malformed = await composed(fakeCall(), async () => 'not a result' as never);
    expect(malformed).toMatchObject({ ok: false, status: 'exception' });
    expect(malformed.audit?.layers?.map((layer) => layer.name)).toEqual([
      'below_with_timeout',
      'with_timeout',
      'with_rate_limit',
    ]);
  });

  it('lets a bundled layer called alone reject with what it throws, as any layer does; composed, it is its result', async () => {
    const consent = withConsent(async () => true, {
      when: () => {
        throw new Error('policy lookup failed');
      },
    });
    const alone = consent(fakeCall(), async () => {
      throw new Error('must not run');
    });
    await expect(alone).rejects.toThrow('policy lookup failed');
    const { echo, run } = setup([withRateLimit({ maxCalls: 10 }), consent]);
    const composed = await run();
    expect(composed).toMatchObject({ ok: false, error: 'policy lookup failed' });
    expect(composed.audit?.layers?.map((layer) => layer.name)).toEqual([
      'with_consent',
      'with_rate_limit',
    ]);
    expect(echo.callCount).toBe(0);
  });
});
