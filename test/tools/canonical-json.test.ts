import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson, sha256Hex } from '../../src/tools/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys recursively and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}',
    );
  });

  it('gives equal text for equal values whatever the key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reversed = JSON.parse(JSON.stringify(value), (_key, item) =>
          item !== null && typeof item === 'object' && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item).reverse())
            : item,
        );
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws a TypeError on cycles', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });

  it('hashes with SHA-256', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
