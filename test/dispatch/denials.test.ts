import { describe, expect, it } from 'vitest';
import { retryableDenial, terminalDenial } from '../../src/dispatch/denials.js';

describe('denials', () => {
  it('terminalDenial is not retryable and lists no paths by default', () => {
    expect(terminalDenial('side_effect_ceiling', 'read-only session')).toEqual({
      gate: 'side_effect_ceiling',
      reason: 'read-only session',
      retryable: false,
      deniedPaths: [],
    });
    expect(
      terminalDenial('side_effect_ceiling', 'too strong', { capability: 'process.exec' }),
    ).toEqual({
      gate: 'side_effect_ceiling',
      reason: 'too strong',
      retryable: false,
      deniedPaths: [],
      capability: 'process.exec',
    });
  });

  it('retryableDenial is retryable', () => {
    expect(retryableDenial('arg_constraint', 'path outside workspace').retryable).toBe(true);
  });

  it('carries a capability and denied paths when given', () => {
    const denial = terminalDenial('capability_ceiling', 'no exec', {
      capability: 'process.exec',
      deniedPaths: ['/etc/passwd'],
    });
    expect(denial).toMatchObject({ capability: 'process.exec', deniedPaths: ['/etc/passwd'] });
    expect(retryableDenial('arg_constraint', 'x', { deniedPaths: ['/tmp/a'] })).toEqual({
      gate: 'arg_constraint',
      reason: 'x',
      retryable: true,
      deniedPaths: ['/tmp/a'],
    });
  });

  it('leaves capability out when it is not given', () => {
    expect(Object.hasOwn(terminalDenial('unknown', 'r'), 'capability')).toBe(false);
  });
});
