import { describe, expect, it } from 'vitest';
import { resolveSafety, sideEffectRank } from '../../src/tools/tool-safety.js';

describe('resolveSafety', () => {
  it('assumes an undeclared tool may write and is not idempotent', () => {
    const safety = resolveSafety({});
    expect(safety).toMatchObject({
      readOnly: false,
      destructive: true,
      idempotent: false,
      sideEffectLevel: 'workspace_write',
    });
  });

  it('treats read-only tools as idempotent and never destructive', () => {
    const safety = resolveSafety({ readOnly: true, destructive: true });
    expect(safety).toMatchObject({ readOnly: true, idempotent: true, destructive: false });
    expect(resolveSafety({ sideEffectLevel: 'none' }).readOnly).toBe(true);
  });

  it('derives levels from the flags', () => {
    expect(resolveSafety({ shell: true }).sideEffectLevel).toBe('process_exec');
    expect(resolveSafety({ network: true }).sideEffectLevel).toBe('network');
    expect(resolveSafety({ network: true, readOnly: true }).sideEffectLevel).toBe('read_only');
    expect(resolveSafety({ sideEffectLevel: 'network' }).openWorld).toBe(true);
  });

  it('orders side-effect levels by reach', () => {
    expect(sideEffectRank('none')).toBeLessThan(sideEffectRank('read_only'));
    expect(sideEffectRank('workspace_write')).toBeLessThan(sideEffectRank('network'));
  });
});
