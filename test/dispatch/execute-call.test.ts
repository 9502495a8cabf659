import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ExecutionRequest, Executor } from '../../src/dispatch/executor.js';
import type { Next, ToolCaller } from '../../src/dispatch/tool-caller.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { toolInjectParam } from '../../src/middleware/tool-inject-param.js';
import { toolsUseMiddleware } from '../../src/middleware/tools-use-middleware.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/tool-registry.js';

const PATH_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
};

function setup(layer: ToolCaller, registry?: ToolRegistry) {
  const read = recordingTool({ name: 'read_file', inputSchema: PATH_SCHEMA }).returns('text');
  const remove = recordingTool({ name: 'delete_file', inputSchema: PATH_SCHEMA }).returns('gone');
  const secret = recordingTool({ name: 'dump_secrets', deferLoading: true }).returns('leaked');
  const remote = recordingTool({ name: 'fs.stat', foreignName: true }).returns('stat');
  const tools = registry ?? createToolRegistry([read.tool, remove.tool, secret.tool, remote.tool]);
  const dispatcher = createDispatcher({ registry: tools, caller: composeToolCallers([layer]) });
  return { read, remove, secret, remote, dispatcher };
}

const readCall = { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } };

describe('the executor re-checks every call, fail closed', () => {
  it('refuses an envelope built from scratch instead of spread from the original', async () => {
    const forge: ToolCaller = (call, next) => {
      const fresh: ToolCallEnvelope = {
        toolName: call.toolName,
        toolArgs: call.toolArgs,
        callId: call.callId,
        declaredExecutor: call.declaredExecutor,
        schema: call.schema,
        description: call.description,
        annotations: call.annotations,
        turn: call.turn,
        signal: call.signal,
        validation: { valid: true },
      };
      return next(fresh);
    };
    const { dispatcher, read } = setup(forge);
    const result = await dispatcher.dispatch(readCall);
    expect(result).toMatchObject({ ok: false, status: 'policy_blocked', toolCallId: 'c1' });
    expect(result.error).toContain('not derived from the dispatched call');
    expect(read.callCount).toBe(0);
  });

  it('refuses a forged envelope that claims an unknown tool passed validation', async () => {
    const forge: ToolCaller = (call, next) =>
      next({ ...structuredClone({ ...call, signal: undefined }), validation: { valid: true } });
    const { dispatcher, read } = setup(forge);
    const result = await dispatcher.dispatch({ id: 'c1', name: 'nope', arguments: {} });
    expect(result.status).toBe('policy_blocked');
    expect(read.callCount).toBe(0);
  });

  it('refuses a layer swapping toolName to an unknown tool', async () => {
    const swap: ToolCaller = (call, next) => next({ ...call, toolName: 'rm_rf' });
    const { dispatcher, read } = setup(swap);
    const result = await dispatcher.dispatch(readCall);
    expect(result.status).toBe('tool_not_found');
    expect(result.error).toContain('Unknown tool "rm_rf"');
    expect(read.callCount).toBe(0);
  });

  it('refuses a layer swapping toolName to a tool the turn did not advertise', async () => {
    const swap: ToolCaller = (call, next) =>
      next({ ...call, toolName: 'dump_secrets', toolArgs: {} });
    const { dispatcher, secret } = setup(swap);
    const deferred = await dispatcher.dispatch(readCall);
    expect(deferred.status).toBe('tool_not_found');
    const toDelete: ToolCaller = (call, next) => next({ ...call, toolName: 'delete_file' });
    const narrowed = setup(toDelete);
    const refused = await narrowed.dispatcher.dispatch(readCall, {
      advertised: new Set(['read_file']),
    });
    expect(refused.status).toBe('tool_not_found');
    expect(refused.error).toContain('Available tools: read_file.');
    expect(secret.callCount).toBe(0);
    expect(narrowed.remove.callCount).toBe(0);
  });

  it('runs an advertised tool a layer switched to, under its canonical name', async () => {
    const swap: ToolCaller = (call, next) => next({ ...call, toolName: 'fs_stat' });
    const { dispatcher, read, remote } = setup(swap);
    const result = await dispatcher.dispatch(readCall);
    expect(result).toMatchObject({ status: 'ok', toolName: 'fs.stat', result: 'stat' });
    expect(read.callCount).toBe(0);
    expect(remote.callCount).toBe(1);
  });

  it('refuses rewritten arguments that fail the handler schema', async () => {
    const rewrite: ToolCaller = (call, next) => next({ ...call, toolArgs: { path: 42 } });
    const { dispatcher, read } = setup(rewrite);
    const result = await dispatcher.dispatch(readCall);
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('- path: must be string; got integer 42');
    expect(read.callCount).toBe(0);
  });

  it('runs rewritten arguments that repair a schema violation', async () => {
    const repair: ToolCaller = (call, next) =>
      call.validation.valid ? next(call) : next({ ...call, toolArgs: { path: 'fixed.txt' } });
    const { dispatcher, read } = setup(repair);
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: { file: 'a' },
    });
    expect(result.status).toBe('ok');
    expect(read.lastCall?.args).toEqual({ path: 'fixed.txt' });
  });

  it('refuses unchanged arguments that failed validation on arrival, even if a layer marks them valid', async () => {
    const seen: string[] = [];
    const observe: ToolCaller = (call, next) => {
      seen.push(call.validation.valid ? 'valid' : call.validation.status);
      return next(call);
    };
    const { dispatcher, read } = setup(observe);
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: { file: 'a' },
    });
    expect(result.status).toBe('schema_violation');
    expect(seen).toEqual(['schema_violation']);
    const liar: ToolCaller = (call, next) => next({ ...call, validation: { valid: true } });
    const lied = setup(liar);
    const trusted = await lied.dispatcher.dispatch({
      id: 'c2',
      name: 'read_file',
      arguments: { file: 'a' },
    });
    expect(trusted.status).toBe('schema_violation');
    expect(read.callCount).toBe(0);
    expect(lied.read.callCount).toBe(0);
  });

  it('never runs arguments that were not a JSON object, whatever a layer rewrites', async () => {
    const rewrite: ToolCaller = (call, next) => next({ ...call, toolArgs: { path: 'a.txt' } });
    const { dispatcher, read } = setup(rewrite);
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: '{"path":',
    });
    expect(result.status).toBe('schema_violation');
    expect(read.callCount).toBe(0);
  });

  it('lets unknown-tool calls pass through the middleware marked by validation', async () => {
    const seen: unknown[] = [];
    const observe: ToolCaller = (call, next) => {
      seen.push(call.validation);
      return next({ ...call, toolArgs: { path: 'x' } });
    };
    const { dispatcher } = setup(observe);
    const result = await dispatcher.dispatch({ id: 'c1', name: 'ghost', arguments: {} });
    expect(result.status).toBe('tool_not_found');
    expect(seen).toEqual([expect.objectContaining({ valid: false, status: 'tool_not_found' })]);
  });
});

describe('model-visible schema against handler schema', () => {
  function withReason() {
    const read = recordingTool({ name: 'read_file', inputSchema: PATH_SCHEMA }).returns('text');
    const registry = toolsUseMiddleware(createToolRegistry([read.tool]), (tool) =>
      toolInjectParam(tool, 'reason', { type: 'string', minLength: 3 }),
    );
    return { read, registry };
  }

  it('runs stripped arguments that satisfy the handler schema though the model schema wanted more', async () => {
    const { read, registry } = withReason();
    const strip: ToolCaller = (call, next) => {
      const { reason: _reason, ...rest } = call.toolArgs;
      return next({ ...call, toolArgs: rest });
    };
    const dispatcher = createDispatcher({ registry, caller: composeToolCallers([strip]) });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: { path: 'a.txt', reason: 'need it' },
    });
    expect(result.status).toBe('ok');
    expect(result.arguments).toEqual({ path: 'a.txt' });
    expect(read.lastCall?.args).toEqual({ path: 'a.txt' });
  });

  it('refuses the model call that omits the field the model-visible schema requires', async () => {
    const { read, registry } = withReason();
    const dispatcher = createDispatcher({ registry });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: { path: 'a.txt' },
    });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('- reason: missing required property (expected string)');
    expect(read.callCount).toBe(0);
  });

  it('refuses unchanged arguments carrying a field the handler schema forbids', async () => {
    const { read, registry } = withReason();
    const dispatcher = createDispatcher({ registry });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'read_file',
      arguments: { path: 'a.txt', reason: 'need it' },
    });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('- reason: unexpected property');
    expect(read.callCount).toBe(0);
  });
});

describe('executors', () => {
  function workerTool() {
    return {
      name: 'crunch',
      description: 'd',
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      executor: { kind: 'worker' as const, module: '/abs/crunch.js' },
    };
  }

  it('yields executor_error when the tool needs an executor nobody configured', async () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([workerTool()]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'crunch', arguments: {} });
    expect(result).toMatchObject({
      status: 'executor_error',
      errorCategory: 'executor_error',
      executor: 'worker',
    });
    expect(result.error).toBe('no worker executor is configured for tool "crunch"');
  });

  it('runs a tool on the executor it declares', async () => {
    const requests: ExecutionRequest[] = [];
    const worker: Executor = {
      name: 'worker',
      async execute(request) {
        requests.push(request);
        return { ok: true, value: { sum: 3 } };
      },
    };
    const dispatcher = createDispatcher({
      registry: createToolRegistry([workerTool()]),
      executors: [worker],
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'crunch', arguments: { n: 1 } });
    expect(result).toMatchObject({ status: 'ok', executor: 'worker', result: { sum: 3 } });
    expect(requests[0]).toMatchObject({ callId: 'c1', args: { n: 1 } });
    expect(requests[0]?.tool.name).toBe('crunch');
  });

  it('reports an executor that failed itself as executor_error, not a tool error', async () => {
    const worker: Executor = {
      name: 'worker',
      async execute() {
        return {
          ok: false,
          error: null,
          executorFailure: { message: 'worker exited with code 1', exitCode: 1 },
        };
      },
    };
    const dispatcher = createDispatcher({
      registry: createToolRegistry([workerTool()]),
      executors: [worker],
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'crunch', arguments: {} });
    expect(result).toMatchObject({ status: 'executor_error', error: 'worker exited with code 1' });
  });

  it('sees the declared executor on the envelope', async () => {
    const declared: unknown[] = [];
    const observe = (call: ToolCallEnvelope, next: Next) => {
      declared.push(call.declaredExecutor);
      return next(call);
    };
    const dispatcher = createDispatcher({
      registry: createToolRegistry([workerTool(), recordingTool({ name: 'local' }).tool]),
      caller: observe,
    });
    await dispatcher.dispatch({ id: 'a', name: 'crunch', arguments: {} });
    await dispatcher.dispatch({ id: 'b', name: 'local', arguments: {} });
    await dispatcher.dispatch({ id: 'c', name: 'ghost', arguments: {} });
    expect(declared).toEqual(['worker', 'inline', null]);
  });
});
