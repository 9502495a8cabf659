import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCaller } from '../../src/dispatch/tool-caller.js';
import { InvalidOptionError, ScopeViolationError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import {
  type ScopedExecutorOptions,
  withScopedExecutor,
} from '../../src/middleware/with-scoped-executor.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { closedSchema, fakeCall, recordingNext } from './fixtures.js';

function optionError(options: unknown): InvalidOptionError {
  try {
    withScopedExecutor(options as ScopedExecutorOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

const ran: string[] = [];
const registry = createToolRegistry([
  {
    name: 'read_file',
    description: 'r',
    inputSchema: closedSchema(),
    safety: { readOnly: true, filesystem: true },
    handler: () => {
      ran.push('read_file');
      return 'contents';
    },
  },
  {
    name: 'write_file',
    description: 'w',
    inputSchema: closedSchema(),
    safety: { sideEffectLevel: 'workspace_write', filesystem: true },
    handler: () => {
      ran.push('write_file');
      return 'written';
    },
  },
]);
const swapTo =
  (toolName: string): ToolCaller =>
  (call, next) =>
    next({ ...call, toolName });

describe('withScopedExecutor options', () => {
  it.each([
    ['stage', { stage: '' }],
    ['allowedTools', { allowedTools: 'read_file' }],
    ['allowedTools', { allowedTools: [1] }],
    ['sideEffectLevel', { sideEffectLevel: 'root' }],
    ['capabilities', { capabilities: ['filesystem'] }],
    ['capabilities.filesystem', { capabilities: { filesystem: 'read' } }],
    ['onViolation', { onViolation: 'warn' }],
  ])('rejects a bad %s at construction', (option, options) => {
    expect(optionError(options).option).toBe(option);
  });

  it('names the accepted onViolation words', () => {
    expect(optionError({ onViolation: 'warn' }).message).toBe(
      'withScopedExecutor: onViolation must be `reject` or `raise`; got "warn"',
    );
  });
});

describe('withScopedExecutor', () => {
  it('runs an allowed call and records the scope', async () => {
    const next = recordingNext();
    const layer = withScopedExecutor({ stage: 'research', allowedTools: ['echo'] });
    const result = await layer(fakeCall(), next);
    expect(next.calls).toHaveLength(1);
    expect(result.audit).toEqual({
      scope: { stage: 'research', allowedTools: ['echo'] },
      layers: [{ name: 'with_scoped_executor', status: 'ok', stage: 'research' }],
    });
  });

  it('records the default stage and the side-effect ceiling', async () => {
    const result = await withScopedExecutor({ sideEffectLevel: 'read_only' })(
      fakeCall(),
      recordingNext(),
    );
    expect(result.audit?.scope).toEqual({ stage: 'scoped', sideEffectLevel: 'read_only' });
  });

  it('rejects a tool outside the allowlist with scope_violation before anything below runs', async () => {
    const next = recordingNext();
    const layer = withScopedExecutor({ stage: 'research', allowedTools: ['search'] });
    const result = await layer(fakeCall({ toolName: 'deploy', callId: 'c7' }), next);
    expect(next.calls).toHaveLength(0);
    const reason = "tool 'deploy' not in stage 'research' allowlist";
    expect(result).toMatchObject({
      ok: false,
      status: 'scope_violation',
      errorCategory: 'scope_violation',
      error: reason,
      toolCallId: 'c7',
    });
    expect(result.denial).toMatchObject({ gate: 'tool_ceiling', reason, retryable: false });
    expect(result.audit).toEqual({
      scope: { stage: 'research', allowedTools: ['search'] },
      layers: [{ name: 'with_scoped_executor', status: 'rejected', stage: 'research', reason }],
    });
  });

  it('allows nothing with an explicit empty allowlist', async () => {
    const result = await withScopedExecutor({ allowedTools: [] })(fakeCall(), recordingNext());
    expect(result.status).toBe('scope_violation');
  });

  it('rejects a tool above its side-effect ceiling or needing an ungranted capability', async () => {
    const write = fakeCall({
      toolName: 'write_file',
      safety: { sideEffectLevel: 'workspace_write', filesystem: true },
    });
    const ceiling = await withScopedExecutor({ stage: 'review', sideEffectLevel: 'read_only' })(
      write,
      recordingNext(),
    );
    expect(ceiling.status).toBe('scope_violation');
    expect(ceiling.denial?.gate).toBe('side_effect_ceiling');
    expect(ceiling.error).toMatch(
      /^stage 'review': tool "write_file" has side-effect level workspace_write/,
    );
    const capability = await withScopedExecutor({ capabilities: { filesystem: ['read'] } })(
      write,
      recordingNext(),
    );
    expect(capability.denial).toMatchObject({
      gate: 'capability_ceiling',
      capability: 'filesystem.write',
    });
  });

  it('throws a ScopeViolationError with onViolation raise', async () => {
    const layer = withScopedExecutor({ stage: 'research', allowedTools: [], onViolation: 'raise' });
    const pending = layer(fakeCall({ toolName: 'deploy' }), recordingNext());
    await expect(pending).rejects.toSatisfy(
      (error) =>
        ScopeViolationError.isInstance(error) &&
        error.stage === 'research' &&
        error.toolName === 'deploy',
    );
    await expect(layer(fakeCall({ toolName: 'deploy' }), recordingNext())).rejects.toThrow(
      "scope_violation: tool 'deploy' not in stage 'research' allowlist",
    );
  });

  it('becomes a tool_middleware_exception result inside composeToolCallers with raise', async () => {
    const caller = composeToolCallers([
      withScopedExecutor({ allowedTools: [], onViolation: 'raise' }),
    ]);
    const result = await caller(fakeCall(), recordingNext());
    expect(result).toMatchObject({ ok: false, errorCategory: 'tool_middleware_exception' });
    expect(result.audit?.layers).toMatchObject([
      { name: 'with_scoped_executor', status: 'exception' },
    ]);
  });

  it('refuses an unknown tool when an allowlist is set and leaves it to the executor otherwise', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withScopedExecutor({ allowedTools: ['read_file'] }),
    });
    expect((await dispatcher.dispatch({ name: 'nope', arguments: '{}' })).status).toBe(
      'scope_violation',
    );
    const open = createDispatcher({
      registry,
      caller: withScopedExecutor({ sideEffectLevel: 'read_only' }),
    });
    expect((await open.dispatch({ name: 'nope', arguments: '{}' })).status).toBe('tool_not_found');
  });
});

describe('withScopedExecutor through a dispatcher', () => {
  it('runs an allowed tool for real', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withScopedExecutor({ allowedTools: ['read_file'], sideEffectLevel: 'read_only' }),
    });
    const result = await dispatcher.dispatch({ name: 'read_file', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, result: 'contents' });
  });

  it('keeps a layer below that swaps the tool from escaping the scope (permission_denied)', async () => {
    ran.length = 0;
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withScopedExecutor({ stage: 'research', allowedTools: ['read_file'] }),
        swapTo('write_file'),
      ]),
    });
    const result = await dispatcher.dispatch({ name: 'read_file', arguments: '{}' });
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: 'policy_blocked', errorCategory: 'permission_denied' });
    expect(result.denial?.gate).toBe('tool_ceiling');
    expect(result.audit?.layers).toEqual([
      { name: 'with_scoped_executor', status: 'ok', stage: 'research' },
    ]);
  });

  it('can only tighten: an inner scope that allows more does not widen the outer one', async () => {
    ran.length = 0;
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withScopedExecutor({ stage: 'outer', allowedTools: ['read_file'] }),
        withScopedExecutor({ stage: 'inner', allowedTools: ['read_file', 'write_file'] }),
        swapTo('write_file'),
      ]),
    });
    const result = await dispatcher.dispatch({ name: 'read_file', arguments: '{}' });
    expect(ran).toEqual([]);
    expect(result.errorCategory).toBe('permission_denied');
    expect(result.audit?.layers?.map((layer) => layer.stage)).toEqual(['inner', 'outer']);
  });

  it('enforces the side-effect ceiling on a swapped tool too', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withScopedExecutor({ sideEffectLevel: 'read_only' }),
        swapTo('write_file'),
      ]),
    });
    const result = await dispatcher.dispatch({ name: 'read_file', arguments: '{}' });
    expect(result.denial?.gate).toBe('side_effect_ceiling');
  });
});
