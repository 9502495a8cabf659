import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type AnyToolSpec,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolCallEvent,
  ToolTimeoutError,
  toolOutput,
} from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import { addTool, writeTool } from '../support/tools.js';

function dispatcherWith(...tools: AnyToolSpec[][]) {
  const dispatcher = createDispatcher({
    registry: createToolRegistry(tools.flatMap((list) => [...list])),
  });
  const events: ToolCallEvent[] = [];
  dispatcher.events$.subscribe((event) => events.push(event));
  return { dispatcher, events };
}

describe('dispatch: the ok path', () => {
  it('runs the handler and returns a complete result', async () => {
    const { dispatcher } = dispatcherWith([addTool]);
    const result = await dispatcher.dispatch({
      id: 'call_1',
      name: 'add',
      arguments: '{"a":2,"b":3}',
    });
    expect(result).toMatchObject({
      ok: true,
      status: 'ok',
      toolName: 'add',
      toolCallId: 'call_1',
      arguments: { a: 2, b: 3 },
      result: 5,
      renderedResult: '5',
      observation: '5',
      error: null,
      errorCategory: null,
      executor: 'inline',
      emitOrder: 0,
      attempts: 1,
    });
    expect(result.executionDurationMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts arguments as an object and stamps the emit order', async () => {
    const { dispatcher } = dispatcherWith([addTool]);
    const result = await dispatcher.dispatch(
      { id: 'c', name: 'add', arguments: { a: 1, b: 1 } },
      { emitOrder: 4 },
    );
    expect(result).toMatchObject({ ok: true, result: 2, emitOrder: 4 });
  });

  it('generates a call id when the provider sent none', async () => {
    const { dispatcher } = dispatcherWith([addTool]);
    const result = await dispatcher.dispatch({ name: 'add', arguments: '{"a":1,"b":2}' });
    expect(result.toolCallId).toMatch(/^call_[0-9a-f-]{36}$/);
  });
});

describe('dispatch: fail closed', () => {
  it('refuses an unknown tool, listing the available names and the closest one', async () => {
    const { dispatcher } = dispatcherWith([addTool, writeTool()]);
    const result = await dispatcher.dispatch({ id: 'c9', name: 'ad', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'tool_not_found',
      toolCallId: 'c9',
      executor: null,
    });
    expect(result.observation).toBe(
      'Unknown tool "ad". Did you mean "add"? Available tools: add, write_file.',
    );
  });

  it('refuses a tool that was not advertised this turn, and deferred tools by default', async () => {
    const hidden = defineTool({ ...addTool, name: 'hidden_add', deferLoading: true });
    const { dispatcher } = dispatcherWith([addTool, hidden]);
    const notShown = await dispatcher.dispatch(
      { id: 'a', name: 'add', arguments: '{"a":1,"b":1}' },
      { advertised: new Set(['hidden_add']) },
    );
    expect(notShown.status).toBe('tool_not_found');
    expect(notShown.observation).toContain('Available tools: hidden_add.');
    expect(
      (await dispatcher.dispatch({ id: 'b', name: 'hidden_add', arguments: '{"a":1,"b":1}' }))
        .status,
    ).toBe('tool_not_found');
    expect(
      (
        await dispatcher.dispatch(
          { id: 'c', name: 'hidden_add', arguments: '{"a":1,"b":1}' },
          { advertised: new Set(['hidden_add']) },
        )
      ).ok,
    ).toBe(true);
  });

  it('never runs a side-effecting tool on malformed JSON, and never substitutes {}', async () => {
    const written: unknown[] = [];
    const { dispatcher } = dispatcherWith([writeTool(written)]);
    for (const [id, raw] of [
      ['cut', '{"path": "a.txt", "text": "hel'],
      ['empty', ''],
      ['blank', '   '],
      ['missing', undefined],
      ['array', '[1,2]'],
      ['number', '42'],
      ['null', 'null'],
    ] as const) {
      const result = await dispatcher.dispatch({ id, name: 'write_file', arguments: raw ?? null });
      expect(result, id).toMatchObject({
        ok: false,
        status: 'schema_violation',
        errorCategory: 'schema_violation',
        toolCallId: id,
      });
    }
    expect(written).toEqual([]);
    const cut = await dispatcher.dispatch({
      id: 'x',
      name: 'write_file',
      arguments: '{"path": "a',
    });
    expect(cut.observation).toMatch(
      /^Invalid arguments for tool "write_file": arguments are not valid JSON/,
    );
  });

  it('treats missing arguments as {} for read-only tools', async () => {
    const ping = defineTool({
      name: 'ping',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
      safety: { readOnly: true },
      handler: () => 'pong',
    });
    const { dispatcher } = dispatcherWith([ping]);
    expect((await dispatcher.dispatch({ id: 'a', name: 'ping', arguments: '' })).result).toBe(
      'pong',
    );
    expect((await dispatcher.dispatch({ id: 'b', name: 'ping' })).result).toBe('pong');
  });

  it('refuses argument text above maxArgumentChars', async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry([addTool]),
      maxArgumentChars: 32,
    });
    const result = await dispatcher.dispatch({
      id: 'big',
      name: 'add',
      arguments: JSON.stringify({ a: 1, b: 2, pad: 'x'.repeat(40) }),
    });
    expect(result.status).toBe('schema_violation');
    expect(result.observation).toContain('the limit is 32');
  });

  it('refuses schema violations with the repair message and never calls the handler', async () => {
    const handler = vi.fn(() => 0);
    const strict = defineTool({ ...addTool, name: 'strict_add', handler });
    const { dispatcher } = dispatcherWith([strict]);
    const result = await dispatcher.dispatch({
      id: 's',
      name: 'strict_add',
      arguments: '{"a":"1"}',
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'schema_violation',
      errorCategory: 'schema_violation',
      toolCallId: 's',
    });
    expect(result.observation).toContain('- b: missing required property (expected number)');
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('dispatch: failing tools', () => {
  it('turns a thrown error (sync or async) into a tool_error result with the message', async () => {
    const sync = defineTool({
      name: 'sync_fail',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: () => {
        throw new Error('disk on fire');
      },
    });
    const async = defineTool({
      name: 'async_fail',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: async () => Promise.reject(new TypeError('bad input')),
    });
    const thrownString = defineTool({
      name: 'string_fail',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: () => {
        throw 'plain text';
      },
    });
    const { dispatcher } = dispatcherWith([sync, async, thrownString]);
    for (const [name, message] of [
      ['sync_fail', 'disk on fire'],
      ['async_fail', 'bad input'],
      ['string_fail', 'plain text'],
    ] as const) {
      const result = await dispatcher.dispatch({ id: name, name, arguments: '{}' });
      expect(result).toMatchObject({
        ok: false,
        status: 'error',
        errorCategory: 'tool_error',
        error: message,
        toolCallId: name,
        executor: 'inline',
      });
      expect(result.observation).toBe(`[error from ${name}]\n${message}\n[end of ${name} error]`);
    }
  });

  it('classifies transient failures by their HTTP status', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'd',
      inputSchema: { type: 'object' },
      handler: () => {
        throw Object.assign(new Error('upstream said no'), { status: 429 });
      },
    });
    const { dispatcher } = dispatcherWith([flaky]);
    expect(
      (await dispatcher.dispatch({ id: 'f', name: 'flaky', arguments: '{}' })).errorCategory,
    ).toBe('rate_limit');
  });

  it('reports a tool-declared error from toolOutput({ isError })', async () => {
    const missing = defineTool({
      name: 'read_file',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: () =>
        toolOutput({
          value: null,
          isError: true,
          content: [{ type: 'text', text: 'no such file' }],
        }),
    });
    const { dispatcher } = dispatcherWith([missing]);
    const result = await dispatcher.dispatch({ id: 'r', name: 'read_file', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      renderedResult: 'no such file',
    });
    expect(result.content).toEqual([{ type: 'text', text: 'no such file' }]);
  });
});

describe('dispatch: hostile keys', () => {
  it('treats __proto__, constructor and prototype as data, for any arguments', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: (args) => Object.keys(args).length,
    });
    const strict = defineTool({ ...addTool, name: 'strict' });
    const { dispatcher } = dispatcherWith([echo, strict]);
    const hostileKey = fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(fc.oneof(hostileKey, fc.string()), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.oneof(hostileKey, fc.string()), value, { maxKeys: 6 }),
        fc.constantFrom('echo', 'strict'),
        fc.boolean(),
        async (args, name, asText) => {
          const text = JSON.stringify(args);
          const raw = asText ? text : JSON.parse(text);
          const result = await dispatcher.dispatch({ id: 'h', name, arguments: raw });
          expect(result.toolCallId).toBe('h');
          expect(typeof result.ok).toBe('boolean');
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.getPrototypeOf({})).toBe(Object.prototype);
          expect(Object.keys(Object.prototype)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
    const polluting = await dispatcher.dispatch({
      id: 'p',
      name: 'echo',
      arguments: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    });
    expect(polluting.result).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('dispatch: time limits and cancellation', () => {
  it('aborts the handler signal and returns timeout when the tool outlives timeoutMs', async () => {
    let seenReason: unknown;
    const hang = defineTool({
      name: 'hang',
      description: 'never settles on its own',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      timeoutMs: 20,
      handler: (_args, runtime) =>
        new Promise(() => {
          runtime.signal.addEventListener('abort', () => {
            seenReason = runtime.signal.reason;
          });
        }),
    });
    const { dispatcher } = dispatcherWith([hang]);
    const result = await dispatcher.dispatch({ id: 't', name: 'hang', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'timeout',
      errorCategory: 'timeout',
      toolCallId: 't',
    });
    expect(result.error).toBe('tool "hang" exceeded its time limit of 20 ms');
    expect(ToolTimeoutError.isInstance(seenReason)).toBe(true);
  });

  it('returns cancelled without running when the turn signal is already aborted', async () => {
    const handler = vi.fn(() => 1);
    const { dispatcher } = dispatcherWith([defineTool({ ...addTool, name: 'counted', handler })]);
    const controller = new AbortController();
    controller.abort(new Error('user pressed stop'));
    const result = await dispatcher.dispatch(
      { id: 'x', name: 'counted', arguments: '{"a":1,"b":2}' },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 'x',
      error: 'user pressed stop',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('aborts a running handler and returns cancelled when the turn is cancelled', async () => {
    const started = deferred();
    let aborted = false;
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: (_args, runtime) =>
        new Promise(() => {
          runtime.signal.addEventListener('abort', () => {
            aborted = true;
          });
          started.resolve();
        }),
    });
    const { dispatcher } = dispatcherWith([slow]);
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 's', name: 'slow', arguments: '{}' },
      { signal: controller.signal },
    );
    await started.promise;
    controller.abort();
    expect(await pending).toMatchObject({
      status: 'cancelled',
      errorCategory: 'cancelled',
      toolCallId: 's',
    });
    expect(aborted).toBe(true);
  });
});

describe('dispatch: retries', () => {
  function flakyTool(
    failures: unknown[],
    retry = { maxAttempts: 4, initialDelayMs: 100, maxDelayMs: 250, factor: 2 },
  ) {
    let calls = 0;
    const tool = defineTool({
      name: 'fetch_page',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      retry,
      handler: () => {
        const failure = failures[calls];
        calls += 1;
        if (failure !== undefined) throw failure;
        return 'page';
      },
    });
    return { tool, calls: () => calls };
  }

  it('retries transient failures with capped exponential backoff', async () => {
    const unavailable = Object.assign(new Error('service unavailable'), { status: 503 });
    const { tool, calls } = flakyTool([unavailable, unavailable, unavailable]);
    const delays: number[] = [];
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool]),
      random: () => 1,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    const result = await dispatcher.dispatch({ id: 'r', name: 'fetch_page', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, result: 'page', attempts: 4 });
    expect(calls()).toBe(4);
    expect(delays).toEqual([100, 200, 250]);
  });

  it('does not retry a failure that is not transient', async () => {
    const { tool, calls } = flakyTool([new Error('invalid page id')]);
    const sleep = vi.fn(async () => {});
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool]), sleep });
    const result = await dispatcher.dispatch({ id: 'r', name: 'fetch_page', arguments: '{}' });
    expect(result).toMatchObject({ ok: false, errorCategory: 'tool_error', attempts: 1 });
    expect(calls()).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('gives up after maxAttempts and reports the last failure', async () => {
    const overloaded = Object.assign(new Error('overloaded_error'), {});
    const { tool, calls } = flakyTool([overloaded, overloaded, overloaded], {
      maxAttempts: 2,
      initialDelayMs: 1,
      maxDelayMs: 1,
      factor: 1,
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool]),
      sleep: async () => {},
    });
    const result = await dispatcher.dispatch({ id: 'r', name: 'fetch_page', arguments: '{}' });
    expect(result).toMatchObject({ ok: false, errorCategory: 'overloaded', attempts: 2 });
    expect(calls()).toBe(2);
  });

  it('never retries a tool without a retry policy', async () => {
    let calls = 0;
    const send = defineTool({
      name: 'send_email',
      description: 'd',
      inputSchema: { type: 'object' },
      handler: () => {
        calls += 1;
        throw Object.assign(new Error('gateway timeout'), { status: 504 });
      },
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([send]),
      sleep: async () => {},
    });
    expect(
      (await dispatcher.dispatch({ id: 's', name: 'send_email', arguments: '{}' })).errorCategory,
    ).toBe('timeout');
    expect(calls).toBe(1);
  });

  it('stops retrying and returns cancelled when the turn is cancelled during the backoff', async () => {
    const { tool } = flakyTool([Object.assign(new Error('x'), { status: 503 })]);
    const controller = new AbortController();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool]),
      sleep: async () => {
        controller.abort();
        throw controller.signal.reason;
      },
    });
    const result = await dispatcher.dispatch(
      { id: 'r', name: 'fetch_page', arguments: '{}' },
      { signal: controller.signal },
    );
    expect(result.status).toBe('cancelled');
  });
});

describe('dispatch: output size', () => {
  it('bounds the rendered text for the model and keeps the full output as an artifact', async () => {
    const big = `${'x'.repeat(5000)}TAIL`;
    const dump = defineTool({
      name: 'dump',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: () => big,
    });
    const stored: [string, string][] = [];
    const dispatcher = createDispatcher({
      registry: createToolRegistry([dump]),
      maxRenderedChars: 1000,
      artifactStore: { put: (artifact, text) => stored.push([artifact.id, text]) },
    });
    const result = await dispatcher.dispatch({ id: 'd1', name: 'dump', arguments: '{}' });
    expect(result.result).toBe(big);
    expect(result.renderedResult.length).toBeLessThan(1200);
    expect(result.renderedResult.endsWith('TAIL')).toBe(true);
    expect(result.renderedResult).toContain(
      'output truncated: 5004 characters in full, kept as artifact artifact_d1',
    );
    expect(result.artifacts).toEqual([
      { id: 'artifact_d1', toolCallId: 'd1', mediaType: 'text/plain', length: 5004 },
    ]);
    expect(stored).toEqual([['artifact_d1', big]]);
  });
});

describe('dispatch: lifecycle events', () => {
  it('emits pending, in_progress and completed in order, with ACP field names', async () => {
    const { dispatcher, events } = dispatcherWith([addTool]);
    await dispatcher.dispatch(
      { id: 'e1', name: 'add', arguments: '{"a":1,"b":2}' },
      { sessionId: 'sess', emitOrder: 2 },
    );
    expect(
      events.map((event) => [event.type, 'status' in event ? event.status : undefined]),
    ).toEqual([
      ['tool_call', 'pending'],
      ['tool_call_update', 'in_progress'],
      ['tool_call_update', 'completed'],
    ]);
    expect(events[0]).toMatchObject({
      toolCallId: 'e1',
      toolName: 'add',
      title: 'add',
      kind: 'read',
      rawInput: '{"a":1,"b":2}',
      sessionId: 'sess',
      emitOrder: 2,
    });
    expect(events[2]).toMatchObject({
      errorCategory: null,
      executor: 'inline',
      resultStatus: 'ok',
      rawOutput: 3,
    });
  });

  it('emits failed with the wire category for a refused call, and no audit event without audit', async () => {
    const { dispatcher, events } = dispatcherWith([addTool]);
    await dispatcher.dispatch({ id: 'e2', name: 'add', arguments: '{"a":"x"}' });
    const last = events.at(-1);
    expect(last).toMatchObject({
      type: 'tool_call_update',
      status: 'failed',
      errorCategory: 'schema_validation',
      resultStatus: 'schema_violation',
      executionDurationMs: null,
    });
    expect(events.some((event) => event.type === 'tool_call_audit')).toBe(false);
  });

  it('emits tool_call_audit only when a layer attached audit data, and progress from runtime.emit', async () => {
    const reporter = defineTool({
      name: 'report',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      handler: (_args, runtime) => {
        runtime.emit({ message: 'halfway', progress: 1, total: 2 });
        return 'done';
      },
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([reporter]),
      caller: async (call, next) => ({ ...(await next(call)), audit: { summary: 'reported' } }),
    });
    const events: ToolCallEvent[] = [];
    dispatcher.events$.subscribe((event) => events.push(event));
    await dispatcher.dispatch({ id: 'p', name: 'report', arguments: '{}' });
    expect(events.map((event) => event.type)).toEqual([
      'tool_call',
      'tool_call_update',
      'tool_call_progress',
      'tool_call_audit',
      'tool_call_update',
    ]);
    expect(events[2]).toMatchObject({ progress: { message: 'halfway', progress: 1, total: 2 } });
    expect(events[3]).toMatchObject({ audit: { summary: 'reported' } });
  });
});
