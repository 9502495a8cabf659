import { describe, expect, it } from 'vitest';
import { mergeAudit } from '../../src/dispatch/audit.js';

describe('mergeAudit', () => {
  it('returns the addition when there is nothing yet', () => {
    const addition = { summary: 's' };
    expect(mergeAudit(undefined, addition)).toBe(addition);
  });

  it('merges shallowly with the addition winning', () => {
    expect(
      mergeAudit(
        { summary: 'inner', kind: 'read', metadata: { a: 1 } },
        { summary: 'outer', metadata: { b: 2 } },
      ),
    ).toEqual({ summary: 'outer', kind: 'read', metadata: { b: 2 } });
  });

  it('concatenates layers, existing (inner) first', () => {
    const merged = mergeAudit(
      { layers: [{ name: 'inner', status: 'ok' }] },
      { layers: [{ name: 'outer', status: 'ok' }] },
    );
    expect(merged.layers?.map((layer) => layer.name)).toEqual(['inner', 'outer']);
  });

  it('keeps existing layers when the addition has none, and takes new ones when there were none', () => {
    expect(mergeAudit({ layers: [{ name: 'a', status: 'ok' }] }, { summary: 'x' }).layers).toEqual([
      { name: 'a', status: 'ok' },
    ]);
    expect(mergeAudit({ summary: 'x' }, { layers: [{ name: 'b', status: 'ok' }] }).layers).toEqual([
      { name: 'b', status: 'ok' },
    ]);
  });

  it('does not change its inputs', () => {
    const existing = { layers: [{ name: 'a', status: 'ok' }] };
    mergeAudit(existing, { layers: [{ name: 'b', status: 'ok' }] });
    expect(existing.layers).toHaveLength(1);
  });
});
