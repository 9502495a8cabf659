import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { ToolDefinitionError } from '../../src/errors.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import type { ToolSpec } from '../../src/tools/tool-spec.js';

const OBJECT = { type: 'object', properties: { q: { type: 'string' } } } as const;

function base(extra: Partial<ToolSpec> = {}): ToolSpec {
  return { name: 'tool', description: 'd', inputSchema: OBJECT, handler: () => null, ...extra };
}

function ruleOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return (error as ToolDefinitionError).rule;
  }
  return undefined;
}

describe('defineTool', () => {
  it('returns a frozen tool with every field decided', () => {
    const tool = defineTool(base());
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.title).toBe('tool');
    expect(tool.handlerSchema).toBe(OBJECT);
    expect(tool.injected).toEqual([]);
    expect(tool.executor).toEqual({ kind: 'inline' });
    expect(tool.deferLoading).toBe(false);
    expect(tool.foreignName).toBe(false);
    expect(tool.retry).toBeUndefined();
    // Nothing declared: fail closed, the tool may write.
    expect(tool.safety.readOnly).toBe(false);
    expect(tool.safety.idempotent).toBe(false);
  });

  it.each([
    ['a non-object spec', () => defineTool(null as unknown as ToolSpec), 'spec_type'],
    [
      'a missing description',
      () => defineTool(base({ description: undefined as unknown as string })),
      'description',
    ],
    [
      'a non-object input schema',
      () => defineTool(base({ inputSchema: { type: 'string' } })),
      'schema_type',
    ],
    ['a missing handler', () => defineTool(base({ handler: undefined })), 'handler'],
    ['a zero timeout', () => defineTool(base({ timeoutMs: 0 })), 'timeout'],
    [
      'an infinite timeout',
      () => defineTool(base({ timeoutMs: Number.POSITIVE_INFINITY })),
      'timeout',
    ],
    ['an unknown kind', () => defineTool(base({ kind: 'launch' as never })), 'kind'],
    [
      'an unknown executor',
      () => defineTool(base({ executor: { kind: 'gpu' } as never })),
      'executor',
    ],
    [
      'a worker executor without a module',
      () => defineTool(base({ executor: { kind: 'worker', module: '' } })),
      'executor',
    ],
    [
      'an unknown injected value',
      () => defineTool(base({ injected: ['db' as never] })),
      'injected',
    ],
    [
      'an invalid output schema',
      () => defineTool(base({ outputSchema: { type: 'object', requried: [] } })),
      'schema_invalid',
    ],
  ])('rejects %s', (_label, run, rule) => {
    expect(ruleOf(run)).toBe(rule);
  });

  it('rejects a retry policy on a tool with side effects', () => {
    expect(ruleOf(() => defineTool(base({ retry: { maxAttempts: 3 } })))).toBe(
      'retry_not_idempotent',
    );
    expect(
      ruleOf(() => defineTool(base({ safety: { sideEffectLevel: 'network' }, retry: {} }))),
    ).toBe('retry_not_idempotent');
  });

  it('accepts a retry policy on read-only and on idempotent tools, with defaults', () => {
    const readOnly = defineTool(base({ safety: { readOnly: true }, retry: {} }));
    expect(readOnly.retry).toEqual({
      maxAttempts: 3,
      initialDelayMs: 100,
      maxDelayMs: 2000,
      factor: 2,
      jitter: true,
    });
    const idempotent = defineTool(
      base({ safety: { idempotent: true }, retry: { maxAttempts: 5, jitter: false } }),
    );
    expect(idempotent.retry?.maxAttempts).toBe(5);
    expect(idempotent.retry?.jitter).toBe(false);
  });

  it.each([
    [{ maxAttempts: 0 }],
    [{ maxAttempts: 1.5 }],
    [{ initialDelayMs: -1 }],
    [{ maxDelayMs: Number.NaN }],
    [{ factor: Number.POSITIVE_INFINITY }],
  ])('rejects retry options %j', (retry) => {
    expect(ruleOf(() => defineTool(base({ safety: { readOnly: true }, retry })))).toBe(
      'retry_options',
    );
  });

  it('derives the kind from the safety metadata', () => {
    expect(defineTool(base({ safety: { readOnly: true } })).kind).toBe('read');
    expect(defineTool(base({ safety: { shell: true } })).kind).toBe('execute');
    expect(defineTool(base({ safety: { destructive: true } })).kind).toBe('delete');
    expect(defineTool(base({ safety: { sideEffectLevel: 'network' } })).kind).toBe('fetch');
    expect(defineTool(base({ kind: 'think' })).kind).toBe('think');
  });

  it('keeps a declared handlerSchema apart from the model-visible inputSchema', () => {
    const handlerSchema = { type: 'object', properties: {} };
    const tool = defineTool(base({ handlerSchema }));
    expect(tool.inputSchema).toBe(OBJECT);
    expect(tool.handlerSchema).toBe(handlerSchema);
  });
});

describe('hidden runtime values', () => {
  const SECRET = 'sk-live-7f3a9c-do-not-leak';
  const CONTEXT_MARK = 'ctx-user-4411';
  const STORE_MARK = 'store-handle-9001';

  function hiddenTool() {
    return recordingTool({
      name: 'deploy',
      description: 'Deploy a service',
      inputSchema: {
        type: 'object',
        properties: { service: { type: 'string' } },
        required: ['service'],
      },
      injected: ['context', 'stores', 'secrets'],
    });
  }

  it('never reach the model-visible schema', async () => {
    const deploy = hiddenTool();
    const registry = createToolRegistry([deploy.tool]);
    const dispatcher = createDispatcher({
      registry,
      context: { user: CONTEXT_MARK },
      stores: { memory: STORE_MARK },
      secrets: { apiKey: SECRET },
    });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'deploy',
      arguments: { service: 'web' },
    });
    expect(result.status).toBe('ok');
    const visible = JSON.stringify(registry.modelDefinitions());
    for (const value of [SECRET, CONTEXT_MARK, STORE_MARK]) expect(visible).not.toContain(value);
    for (const key of ['context', 'stores', 'secrets', 'signal', 'callId', 'turn', 'injected']) {
      expect(visible).not.toContain(`"${key}"`);
    }
    expect(Object.keys(registry.modelDefinitions()[0]!.inputSchema.properties as object)).toEqual([
      'service',
    ]);
  });

  it.each(['context', 'stores', 'secrets'] as const)(
    'defineTool rejects an input schema declaring the injected name %s',
    (name) => {
      const spec = base({
        injected: [name],
        inputSchema: { type: 'object', properties: { [name]: { type: 'object' } } },
      });
      expect(ruleOf(() => defineTool(spec))).toBe('injected_in_schema');
    },
  );

  it('hands context, stores and secrets only to handlers that list them', async () => {
    const all = hiddenTool();
    const onlySecrets = recordingTool({ name: 'only_secrets', injected: ['secrets'] });
    const none = recordingTool({ name: 'none' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([all.tool, onlySecrets.tool, none.tool]),
      context: { user: CONTEXT_MARK },
      stores: { memory: STORE_MARK },
      secrets: { apiKey: SECRET },
    });
    await dispatcher.dispatch({ id: 'a', name: 'deploy', arguments: { service: 'web' } });
    await dispatcher.dispatch({ id: 'b', name: 'only_secrets', arguments: {} });
    await dispatcher.dispatch({ id: 'c', name: 'none', arguments: {} });
    expect(all.lastCall?.context).toEqual({ user: CONTEXT_MARK });
    expect(all.lastCall?.stores).toEqual({ memory: STORE_MARK });
    expect(all.lastCall?.secrets).toEqual({ apiKey: SECRET });
    expect(onlySecrets.lastCall?.secrets).toEqual({ apiKey: SECRET });
    expect(onlySecrets.lastCall?.context).toBeUndefined();
    expect(onlySecrets.lastCall?.stores).toBeUndefined();
    expect(none.lastCall?.context).toBeUndefined();
    expect(none.lastCall?.stores).toBeUndefined();
    expect(none.lastCall?.secrets).toBeUndefined();
  });

  it('keeps hidden values out of the arguments and the result', async () => {
    const deploy = hiddenTool();
    const dispatcher = createDispatcher({
      registry: createToolRegistry([deploy.tool]),
      secrets: { apiKey: SECRET },
    });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'deploy',
      arguments: { service: 'web' },
    });
    expect(deploy.lastCall?.args).toEqual({ service: 'web' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('gives the handler its call id, turn facts and a signal without showing them to the model', async () => {
    const tool = recordingTool({ name: 'probe' });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    await dispatcher.dispatch(
      { id: 'call_9', name: 'probe', arguments: {} },
      { iteration: 3, sessionId: 's1', runId: 'r1', emitOrder: 2 },
    );
    const call = tool.lastCall!;
    expect(call.callId).toBe('call_9');
    expect(call.toolName).toBe('probe');
    expect(call.turn).toMatchObject({ iteration: 3, sessionId: 's1', runId: 'r1', emitOrder: 2 });
    expect(call.signal).toBeInstanceOf(AbortSignal);
    expect(call.args).toEqual({});
  });
});
