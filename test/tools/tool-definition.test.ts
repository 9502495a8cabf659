import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  ToolDefinitionError,
  type ToolRuntime,
} from '../../src/index.js';
import { resolveSafety } from '../../src/tools/index.js';

const EMPTY = { type: 'object', properties: {} } as const;

function ruleOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (ToolDefinitionError.isInstance(error)) return error.rule;
    throw error;
  }
  return undefined;
}

describe('defineTool', () => {
  it('returns a frozen tool with every field decided', () => {
    const tool = defineTool({
      name: 'read',
      description: 'd',
      inputSchema: EMPTY,
      safety: { readOnly: true },
      handler: () => 1,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool).toMatchObject({
      title: 'read',
      kind: 'read',
      deferLoading: false,
      executor: { kind: 'inline' },
    });
    expect(tool.safety).toMatchObject({
      readOnly: true,
      idempotent: true,
      destructive: false,
      sideEffectLevel: 'read_only',
    });
  });

  it.each([
    [{ inputSchema: { type: 'string' } }, 'schema_type'],
    [{ inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } }, 'schema_invalid'],
    [{ inputSchema: { type: 'object', requried: ['a'] } }, 'schema_invalid'],
    [{ handler: undefined }, 'handler'],
    [{ timeoutMs: 0 }, 'timeout'],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, 'timeout'],
    [{ kind: 'explode' }, 'kind'],
    [{ description: 42 }, 'description'],
    [{ executor: { kind: 'worker', module: '' } }, 'executor'],
    [{ injected: ['database'] }, 'injected'],
  ])('rejects an invalid spec %j with rule %s', (override, rule) => {
    const spec = {
      name: 'tool',
      description: 'd',
      inputSchema: EMPTY,
      handler: () => 1,
      ...override,
    };
    expect(ruleOf(() => defineTool(spec as never))).toBe(rule);
  });

  it('refuses a retry policy on a tool with side effects', () => {
    expect(
      ruleOf(() =>
        defineTool({
          name: 'send',
          description: 'd',
          inputSchema: EMPTY,
          handler: () => 1,
          retry: { maxAttempts: 3 },
        }),
      ),
    ).toBe('retry_not_idempotent');
    const idempotent = defineTool({
      name: 'put',
      description: 'd',
      inputSchema: EMPTY,
      safety: { idempotent: true, sideEffectLevel: 'workspace_write' },
      handler: () => 1,
      retry: { maxAttempts: 2 },
    });
    expect(idempotent.retry).toEqual({
      maxAttempts: 2,
      initialDelayMs: 100,
      maxDelayMs: 2000,
      factor: 2,
      jitter: true,
    });
  });

  it('derives the ACP kind from the safety metadata', () => {
    const kindOf = (safety: object) =>
      defineTool({ name: 'k', description: 'd', inputSchema: EMPTY, safety, handler: () => 1 })
        .kind;
    expect(kindOf({ shell: true })).toBe('execute');
    expect(kindOf({ readOnly: true })).toBe('read');
    expect(kindOf({ readOnly: true, openWorld: true })).toBe('fetch');
    expect(kindOf({ destructive: true })).toBe('delete');
    expect(kindOf({ filesystem: true })).toBe('edit');
    expect(kindOf({ network: true })).toBe('fetch');
    expect(kindOf({})).toBe('other');
  });

  it('resolves undeclared effects fail closed', () => {
    expect(resolveSafety({})).toMatchObject({
      readOnly: false,
      destructive: true,
      idempotent: false,
      sideEffectLevel: 'workspace_write',
    });
    expect(resolveSafety({ sideEffectLevel: 'none' })).toMatchObject({
      readOnly: true,
      idempotent: true,
    });
  });
});

describe('hidden runtime values', () => {
  const secrets = { API_TOKEN: 'sk-live-do-not-leak' };
  const context = { userId: 'user-42', tenant: 'acme-internal' };

  function probe(injected: readonly ('context' | 'stores' | 'secrets')[]) {
    const seen: ToolRuntime[] = [];
    const tool = defineTool({
      name: injected.length === 0 ? 'plain' : 'privileged',
      description: 'Looks up a record',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      injected,
      safety: { readOnly: true },
      handler: (_args, runtime) => {
        seen.push(runtime);
        return 'ok';
      },
    });
    return { tool, seen };
  }

  it('never appear in the model-visible definitions', () => {
    const { tool } = probe(['context', 'stores', 'secrets']);
    const registry = createToolRegistry([tool]);
    createDispatcher({ registry, secrets, context, stores: { db: {} } });
    const visible = JSON.stringify(registry.modelDefinitions());
    expect(visible).not.toContain('sk-live-do-not-leak');
    expect(visible).not.toContain('acme-internal');
    for (const key of ['"secrets"', '"context"', '"stores"', '"signal"', '"callId"']) {
      expect(visible).not.toContain(key);
    }
    expect(JSON.parse(visible)[0].inputSchema).toEqual(tool.inputSchema);
  });

  it('cannot be declared as schema properties', () => {
    expect(
      ruleOf(() =>
        defineTool({
          name: 'leaky',
          description: 'd',
          inputSchema: { type: 'object', properties: { secrets: { type: 'object' } } },
          injected: ['secrets'],
          handler: () => 1,
        }),
      ),
    ).toBe('injected_in_schema');
  });

  it('reach only the handlers that list them in injected', async () => {
    const privileged = probe(['context', 'secrets']);
    const plain = probe([]);
    const dispatcher = createDispatcher({
      registry: createToolRegistry([privileged.tool, plain.tool]),
      secrets,
      context,
      stores: { db: 'handle' },
    });
    await dispatcher.dispatch(
      { id: 'p', name: 'privileged', arguments: '{"id":"1"}' },
      { sessionId: 's', iteration: 3 },
    );
    await dispatcher.dispatch({ id: 'q', name: 'plain', arguments: '{"id":"1"}' });
    const [granted] = privileged.seen;
    const [denied] = plain.seen;
    expect(granted).toMatchObject({
      callId: 'p',
      toolName: 'privileged',
      context,
      secrets,
      stores: undefined,
    });
    expect(granted?.turn).toMatchObject({ sessionId: 's', iteration: 3, emitOrder: 0 });
    expect(granted?.signal).toBeInstanceOf(AbortSignal);
    expect(denied).toMatchObject({
      callId: 'q',
      context: undefined,
      secrets: undefined,
      stores: undefined,
    });
    expect(JSON.stringify(denied)).not.toContain('sk-live');
  });
});
