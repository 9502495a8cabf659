import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import {
  type ExecutionPolicy,
  intersectPolicies,
  narrowExecutionPolicy,
  policyDenial,
  requiredCapabilities,
  withExecutionPolicy,
} from '../../src/dispatch/execution-policy.js';
import type { ToolCaller } from '../../src/dispatch/tool-caller.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { resolveSafety } from '../../src/tools/tool-safety.js';

const empty = { type: 'object', properties: {} } as const;
const read = defineTool({
  name: 'read_file',
  description: 'read',
  inputSchema: empty,
  safety: { readOnly: true, filesystem: true },
  handler: () => 'contents',
});
const write = defineTool({
  name: 'write_file',
  description: 'write',
  inputSchema: empty,
  safety: { sideEffectLevel: 'workspace_write', filesystem: true },
  handler: () => 'written',
});
const shell = defineTool({
  name: 'run',
  description: 'shell',
  inputSchema: empty,
  safety: { shell: true },
  annotations: { capabilities: { git: ['push'] } },
  handler: () => 'ran',
});
const registry = createToolRegistry([read, write, shell]);

function scoped(policy: ExecutionPolicy, rename?: string): ToolCaller {
  return (call, next) =>
    next({ ...narrowExecutionPolicy(call, policy), ...(rename ? { toolName: rename } : {}) });
}

describe('intersectPolicies', () => {
  it('keeps only tools both allow, the lower ceiling and the common operations', () => {
    const merged = intersectPolicies(
      {
        tools: new Set(['a', 'b']),
        sideEffectLevel: 'process_exec',
        capabilities: { filesystem: ['read', 'write'], network: ['request'] },
      },
      {
        tools: new Set(['b', 'c']),
        sideEffectLevel: 'read_only',
        capabilities: { filesystem: ['read'] },
      },
    );
    expect([...(merged.tools ?? [])]).toEqual(['b']);
    expect(merged.sideEffectLevel).toBe('read_only');
    expect(merged.capabilities).toEqual({ filesystem: ['read'] });
  });

  it('treats a field one side leaves out as unrestricted on that side', () => {
    const merged = intersectPolicies({ sideEffectLevel: 'network' }, { tools: new Set(['x']) });
    expect(merged.sideEffectLevel).toBe('network');
    expect([...(merged.tools ?? [])]).toEqual(['x']);
    expect(merged.capabilities).toBeUndefined();
  });
});

describe('requiredCapabilities', () => {
  it('derives needs from safety flags and adds declared ones', () => {
    expect(requiredCapabilities(read)).toEqual(['filesystem.read']);
    expect(requiredCapabilities(write)).toEqual(['filesystem.write']);
    expect(requiredCapabilities(shell)).toEqual(['process.exec', 'git.push']);
    expect(
      requiredCapabilities({ name: 'x', safety: resolveSafety({ network: true, spend: true }) }),
    ).toEqual(['network.request', 'spend.charge']);
  });
});

describe('policyDenial', () => {
  it('names the gate that refused the tool', () => {
    expect(policyDenial({ tools: new Set() }, read)?.gate).toBe('tool_ceiling');
    expect(policyDenial({ sideEffectLevel: 'read_only' }, write)?.gate).toBe('side_effect_ceiling');
    const denial = policyDenial({ capabilities: { filesystem: ['read'] } }, write);
    expect(denial).toMatchObject({ gate: 'capability_ceiling', capability: 'filesystem.write' });
    expect(denial?.retryable).toBe(false);
    expect(policyDenial({ capabilities: { filesystem: ['read'] } }, read)).toBeNull();
  });
});

describe('the executor enforces the execution policy', () => {
  it('runs a tool the policy allows', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: scoped({ tools: new Set(['read_file']), sideEffectLevel: 'read_only' }),
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'read_file', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, result: 'contents' });
  });

  it('refuses a tool swapped in by a layer below the scope with permission_denied', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: scoped({ tools: new Set(['read_file']) }, 'write_file'),
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'read_file', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'policy_blocked',
      errorCategory: 'permission_denied',
      toolName: 'write_file',
      toolCallId: 'c1',
      executor: null,
    });
    expect(result.denial?.gate).toBe('tool_ceiling');
  });

  it('refuses a tool above the side-effect ceiling and one missing a capability', async () => {
    const ceiling = createDispatcher({
      registry,
      caller: scoped({ sideEffectLevel: 'read_only' }),
    });
    const high = await ceiling.dispatch({ name: 'run', arguments: '{}' });
    expect(high.denial?.gate).toBe('side_effect_ceiling');
    const caps = createDispatcher({
      registry,
      caller: scoped({ capabilities: { process: ['exec'] } }),
    });
    const missing = await caps.dispatch({ name: 'run', arguments: '{}' });
    expect(missing).toMatchObject({ errorCategory: 'permission_denied' });
    expect(missing.denial).toMatchObject({ gate: 'capability_ceiling', capability: 'git.push' });
  });

  it('can only tighten: an inner scope cannot widen an outer one', async () => {
    const outer = scoped({ tools: new Set(['read_file']) });
    const inner = scoped({ tools: new Set(['read_file', 'write_file']) });
    const dispatcher = createDispatcher({
      registry,
      caller: (call, next) => outer(call, (narrowed) => inner(narrowed, next)),
    });
    const result = await dispatcher.dispatch({ name: 'write_file', arguments: '{}' });
    expect(result.denial?.gate).toBe('tool_ceiling');
  });

  it('an empty tool set allows nothing', async () => {
    const dispatcher = createDispatcher({ registry, caller: scoped({ tools: new Set() }) });
    const result = await dispatcher.dispatch({ name: 'read_file', arguments: '{}' });
    expect(result.status).toBe('policy_blocked');
  });

  it('still answers tool_not_found and unreadable arguments before the policy', async () => {
    const dispatcher = createDispatcher({ registry, caller: scoped({ tools: new Set() }) });
    expect((await dispatcher.dispatch({ name: 'nope', arguments: '{}' })).status).toBe(
      'tool_not_found',
    );
    expect((await dispatcher.dispatch({ name: 'write_file', arguments: '{' })).status).toBe(
      'schema_violation',
    );
  });

  it('leaves an envelope without call state unchanged', () => {
    const bare = { toolName: 'x' } as unknown as Parameters<typeof narrowExecutionPolicy>[0];
    expect(narrowExecutionPolicy(bare, { tools: new Set() })).toBe(bare);
  });

  it('keeps its former name, withExecutionPolicy, as a deprecated alias of the same function', () => {
    expect(withExecutionPolicy).toBe(narrowExecutionPolicy);
  });
});
