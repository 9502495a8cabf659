import { describe, expect, it } from 'vitest';
import { createDispatcher, createToolRegistry, defineTool } from '../../src/index.js';

const read = defineTool({
  name: 'read_note',
  description: 'Read a note',
  inputSchema: { type: 'object', properties: {} },
  safety: { readOnly: true },
  handler: () => 'note',
});
const write = defineTool({
  name: 'write_note',
  description: 'Write a note',
  inputSchema: { type: 'object', properties: {} },
  safety: { sideEffectLevel: 'workspace_write' },
  handler: () => 'written',
});
const registry = createToolRegistry([read, write]);

describe('the ambient execution policy', () => {
  it('refuses tools above the dispatcher ceiling with a typed denial', async () => {
    const dispatcher = createDispatcher({ registry, policy: { sideEffectLevel: 'read_only' } });
    const denied = await dispatcher.dispatch({ id: 'w', name: 'write_note', arguments: '{}' });
    expect(denied.status).toBe('policy_blocked');
    expect(denied.errorCategory).toBe('permission_denied');
    expect(denied.denial?.gate).toBe('side_effect_ceiling');
    expect((await dispatcher.dispatch({ id: 'r', name: 'read_note', arguments: '{}' })).ok).toBe(
      true,
    );
  });

  it('lets a turn narrow the dispatcher policy but never widen it', async () => {
    const dispatcher = createDispatcher({ registry, policy: { tools: new Set(['read_note']) } });
    const widened = await dispatcher.dispatch(
      { id: 'w', name: 'write_note', arguments: '{}' },
      { policy: { tools: new Set(['read_note', 'write_note']) } },
    );
    expect(widened.denial?.gate).toBe('tool_ceiling');
    const narrowed = await dispatcher.dispatch(
      { id: 'r', name: 'read_note', arguments: '{}' },
      { policy: { tools: new Set() } },
    );
    expect(narrowed.status).toBe('policy_blocked');
  });
});
