import { describe, expect, it } from 'vitest';
import { toProposedCall } from '../../src/index.js';

describe('toProposedCall', () => {
  it('reads every shape models emit', () => {
    expect(toProposedCall({ id: 'a', name: 'add', arguments: '{"a":1}' })).toEqual({
      id: 'a',
      name: 'add',
      arguments: '{"a":1}',
    });
    expect(
      toProposedCall({ id: 'b', type: 'function', function: { name: 'add', arguments: '{}' } }),
    ).toEqual({ id: 'b', name: 'add', arguments: '{}' });
    expect(
      toProposedCall({
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_r',
        name: 'add',
        arguments: '{}',
      }),
    ).toEqual({ id: 'call_r', name: 'add', arguments: '{}' });
    expect(
      toProposedCall({ type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 1 } }),
    ).toEqual({ id: 'toolu_1', name: 'add', arguments: { a: 1 } });
    expect(toProposedCall({ name: 'ping' })).toEqual({ name: 'ping', arguments: null });
  });

  it('returns null for anything that is not a call', () => {
    for (const value of [null, 42, 'add', [], {}, { function: {} }, { name: 7 }])
      expect(toProposedCall(value)).toBeNull();
  });

  it('returns null instead of throwing for objects whose getters throw', () => {
    const exploding = Object.defineProperty({}, 'function', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(toProposedCall(exploding)).toBeNull();
  });
});
