import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defaultToolCaller,
  mergeAudit,
  shortCircuitResult,
  type ToolCallEnvelope,
  type ToolCaller,
  toolInjectParam,
  toolsUseMiddleware,
} from '../../src/index.js';
import { addTool, writeTool } from '../support/tools.js';

const registry = createToolRegistry([addTool]);

function recorder(log: string[], name: string): ToolCaller {
  return async (call, next) => {
    log.push(name);
    const result = await next(call);
    log.push(`${name}'`);
    return { ...result, audit: mergeAudit(result.audit, { layers: [{ name, status: 'ok' }] }) };
  };
}

describe('composeToolCallers', () => {
  it("makes the first listed layer the outermost (a, b, c, c', b', a')", async () => {
    const log: string[] = [];
    const caller = composeToolCallers([recorder(log, 'a'), recorder(log, 'b'), recorder(log, 'c')]);
    const result = await createDispatcher({ registry, caller }).dispatch({
      id: '1',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(log).toEqual(['a', 'b', 'c', "c'", "b'", "a'"]);
    expect(result.audit?.layers?.map((layer) => layer.name)).toEqual(['c', 'b', 'a']);
  });

  it('is a pass-through when empty, as is defaultToolCaller', async () => {
    for (const caller of [composeToolCallers([]), defaultToolCaller()]) {
      const result = await createDispatcher({ registry, caller }).dispatch({
        id: '1',
        name: 'add',
        arguments: '{"a":1,"b":2}',
      });
      expect(result).toMatchObject({ ok: true, result: 3 });
      expect(result.audit).toBeUndefined();
    }
  });

  it('rejects a layer that is not a function', () => {
    expect(() => composeToolCallers([recorder([], 'a'), 'oops' as unknown as ToolCaller])).toThrow(
      /layer 1 must be a function/,
    );
  });

  it('turns a throwing layer into a tool_middleware_exception result that outer layers still see', async () => {
    const log: string[] = [];
    const syncThrow: ToolCaller = function explode() {
      throw new Error('layer blew up');
    };
    const asyncThrow: ToolCaller = async function reject() {
      throw new Error('async layer blew up');
    };
    for (const [thrower, message, name] of [
      [syncThrow, 'layer blew up', 'explode'],
      [asyncThrow, 'async layer blew up', 'reject'],
    ] as const) {
      const caller = composeToolCallers([recorder(log, 'outer'), thrower, recorder(log, 'never')]);
      const result = await createDispatcher({ registry, caller }).dispatch({
        id: 'x',
        name: 'add',
        arguments: '{"a":1,"b":2}',
      });
      expect(result).toMatchObject({
        ok: false,
        status: 'tool_middleware_exception',
        errorCategory: 'tool_middleware_exception',
        error: message,
        toolCallId: 'x',
      });
      expect(result.audit?.layers).toEqual([
        expect.objectContaining({ name, status: 'exception', error: message }),
        { name: 'outer', status: 'ok' },
      ]);
    }
    expect(log).not.toContain('never');
  });

  it('lets cancellation propagate through every layer; the dispatcher yields cancelled', async () => {
    const seen: string[] = [];
    const observer: ToolCaller = async (call, next) => {
      try {
        return await next(call);
      } catch (error) {
        seen.push(CancelledError.isInstance(error) ? 'cancelled' : 'other');
        throw error;
      }
    };
    const cancel: ToolCaller = () => {
      throw new CancelledError('stop');
    };
    const result = await createDispatcher({
      registry,
      caller: composeToolCallers([observer, cancel]),
    }).dispatch({ id: 'c', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(seen).toEqual(['cancelled']);
    expect(result).toMatchObject({
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 'c',
    });
  });

  it('lets a layer rewrite arguments or short-circuit', async () => {
    const double: ToolCaller = (call, next) =>
      next({
        ...call,
        toolArgs: { a: Number(call.toolArgs.a) * 2, b: Number(call.toolArgs.b) * 2 },
      });
    const rewritten = await createDispatcher({
      registry,
      caller: composeToolCallers([double]),
    }).dispatch({ id: '1', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(rewritten).toMatchObject({ ok: true, result: 6, arguments: { a: 2, b: 4 } });
    const block: ToolCaller = async (call) =>
      shortCircuitResult(call, { status: 'policy_blocked', error: 'not today' });
    const blocked = await createDispatcher({ registry, caller: block }).dispatch({
      id: '2',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(blocked).toMatchObject({
      ok: false,
      status: 'policy_blocked',
      error: 'not today',
      errorCategory: 'policy_blocked',
      toolCallId: '2',
    });
    expect(blocked.observation).toBe('[blocked: add — policy_blocked]\nnot today');
  });

  it('turns a malformed result from a caller into an exception result', async () => {
    const broken = (async () => ({ nope: true })) as unknown as ToolCaller;
    const result = await createDispatcher({ registry, caller: broken }).dispatch({
      id: 'b',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(result).toMatchObject({ ok: false, status: 'exception', toolCallId: 'b' });
    expect(result.error).toContain('missing a boolean `ok`');
  });

  it('gives a shared (cached) result the identity of the call it answers', async () => {
    let cached: Awaited<ReturnType<ToolCaller>> | undefined;
    const cache: ToolCaller = async (call, next) => {
      cached ??= await next(call);
      return cached;
    };
    const dispatcher = createDispatcher({ registry, caller: cache });
    await dispatcher.dispatch({ id: 'first', name: 'add', arguments: '{"a":1,"b":2}' });
    const second = await dispatcher.dispatch(
      { id: 'second', name: 'add', arguments: '{"a":1,"b":2}' },
      { emitOrder: 3 },
    );
    expect(second).toMatchObject({ toolCallId: 'second', emitOrder: 3, result: 3 });
    expect(cached?.toolCallId).toBe('first');
  });
});

describe('the executor at the bottom re-checks every call', () => {
  it('refuses an envelope built from scratch instead of spread from the call', async () => {
    const forge: ToolCaller = (call, next) => {
      const {
        toolName,
        toolArgs,
        callId,
        declaredExecutor,
        schema,
        description,
        annotations,
        turn,
        signal,
        validation,
      } = call;
      return next({
        toolName,
        toolArgs,
        callId,
        declaredExecutor,
        schema,
        description,
        annotations,
        turn,
        signal,
        validation,
      } as ToolCallEnvelope);
    };
    const result = await createDispatcher({ registry, caller: forge }).dispatch({
      id: 'f',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(result).toMatchObject({ ok: false, status: 'policy_blocked' });
  });

  it('refuses a layer that swaps in an unknown or unadvertised tool', async () => {
    const written: unknown[] = [];
    const both = createToolRegistry([addTool, writeTool(written)]);
    const swapTo =
      (toolName: string): ToolCaller =>
      (call, next) =>
        next({ ...call, toolName, toolArgs: {} });
    const unknown = await createDispatcher({ registry: both, caller: swapTo('rm_rf') }).dispatch({
      id: 'u',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(unknown.status).toBe('tool_not_found');
    const hidden = await createDispatcher({
      registry: both,
      caller: swapTo('write_file'),
    }).dispatch(
      { id: 'h', name: 'add', arguments: '{"a":1,"b":2}' },
      { advertised: new Set(['add']) },
    );
    expect(hidden.status).toBe('tool_not_found');
    expect(written).toEqual([]);
  });

  it('validates rewritten arguments against the handler schema', async () => {
    const corrupt: ToolCaller = (call, next) => next({ ...call, toolArgs: { a: 'one', b: 2 } });
    const result = await createDispatcher({ registry, caller: corrupt }).dispatch({
      id: 'r',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(result).toMatchObject({ status: 'schema_violation' });
    expect(result.observation).toContain('- a: must be number');
  });

  it('refuses unchanged arguments that failed the advertised schema, even if a layer marks them valid', async () => {
    const liar: ToolCaller = (call, next) => next({ ...call, validation: { valid: true } });
    const result = await createDispatcher({ registry, caller: liar }).dispatch({
      id: 'l',
      name: 'add',
      arguments: '{"a":1}',
    });
    expect(result.status).toBe('schema_violation');
  });

  it('runs stripped arguments that satisfy the handler schema although the advertised schema wanted more', async () => {
    const advertised = toolsUseMiddleware(registry, (tool) =>
      toolInjectParam(tool, 'reason', { type: 'string', minLength: 1 }, { required: true }),
    );
    const strip: ToolCaller = (call, next) => {
      const { reason: _reason, ...rest } = call.toolArgs;
      return next({ ...call, toolArgs: rest });
    };
    const dispatcher = createDispatcher({ registry: advertised, caller: strip });
    const result = await dispatcher.dispatch({
      id: 's',
      name: 'add',
      arguments: '{"a":1,"b":2,"reason":"sum them"}',
    });
    expect(result).toMatchObject({ ok: true, result: 3, arguments: { a: 1, b: 2 } });
    const unstripped = await createDispatcher({ registry: advertised }).dispatch({
      id: 't',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(unstripped.status).toBe('schema_violation');
    expect(unstripped.observation).toContain(
      '- reason: missing required property (expected string)',
    );
  });
});

describe('mergeAudit', () => {
  it('merges shallowly, the addition winning, and concatenates layers innermost first', () => {
    const inner = { summary: 'inner', layers: [{ name: 'inner', status: 'ok' }], kept: 1 };
    const merged = mergeAudit(inner, {
      summary: 'outer',
      layers: [{ name: 'outer', status: 'ok' }],
    });
    expect(merged).toEqual({
      summary: 'outer',
      kept: 1,
      layers: [
        { name: 'inner', status: 'ok' },
        { name: 'outer', status: 'ok' },
      ],
    });
    expect(mergeAudit(undefined, { summary: 'x' })).toEqual({ summary: 'x' });
    expect(
      mergeAudit({ layers: [{ name: 'a', status: 'ok' }] }, { summary: 'y' }).layers,
    ).toHaveLength(1);
  });
});
