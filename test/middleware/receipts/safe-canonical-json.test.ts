import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  receiptValueHash,
  safeCanonicalJson,
} from '../../../src/middleware/receipts/safe-canonical-json.js';
import { canonicalHash, canonicalJson } from '../../../src/tools/canonical-json.js';

describe('safeCanonicalJson', () => {
  it('gives exactly the canonical text of any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const notes: string[] = [];
        expect(safeCanonicalJson(value, notes)).toBe(canonicalJson(value));
        expect(notes).toEqual([]);
      }),
    );
  });

  it('serialises nesting far deeper than the call stack allows, without recursion', () => {
    let value: unknown = { leaf: true };
    for (let level = 0; level < 200_000; level += 1) value = level % 2 ? [value] : { next: value };
    const text = safeCanonicalJson(value, []);
    expect(text.startsWith('[{"next":[{"next":')).toBe(true);
    expect(text.length).toBeGreaterThan(1_000_000);
  });

  it('stands in for what JSON cannot carry and names it, a repeated object not being a cycle', () => {
    const shared = { n: 1 };
    const loop: Record<string, unknown> = { shared, again: shared };
    loop.self = loop;
    const notes: string[] = [];
    const throwing = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(safeCanonicalJson({ loop, big: 2n, throwing, run: () => 1 }, notes)).toBe(
      '{"big":"[bigint 2]","loop":{"again":{"n":1},"self":"[cycle]","shared":{"n":1}},"throwing":"[unreadable]"}',
    );
    expect(notes).toEqual([
      '$.run: function dropped',
      '$.big: BigInt',
      '$.loop.self: cycle',
      '$.throwing: toJSON threw',
    ]);
  });

  it('leaves redacted keys out at any depth', () => {
    expect(
      safeCanonicalJson({ a: { token: 1, b: [{ token: 2, c: 3 }] } }, [], new Set(['token'])),
    ).toBe('{"a":{"b":[{"c":3}]}}');
  });
});

describe('receiptValueHash', () => {
  it('hashes plain JSON like canonicalHash, and deep or cyclic values without throwing', () => {
    expect(
      receiptValueHash({ b: 1, a: [2] }, { redact: new Set(), version: 2, notes: [], label: 'x' }),
    ).toBe(canonicalHash({ a: [2], b: 1 }));
    let deep: unknown = 0;
    for (let level = 0; level < 50_000; level += 1) deep = [deep];
    const notes: string[] = [];
    expect(
      receiptValueHash(deep, { redact: new Set(), version: 2, notes, label: 'arguments' }),
    ).toMatch(/^[0-9a-f]{64}$/);
    expect(notes).toEqual([]);
  });
});
