import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
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

  it('gives its own text back for a value parsed from it, already in key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('gives the sorted text for values already in key order and for objects JSON rewrites', () => {
    class Point {
      constructor(
        readonly y: number,
        readonly x: number,
      ) {}
    }
    expect(canonicalJson({ a: [1, { b: null, c: 'x' }], d: true })).toBe(
      '{"a":[1,{"b":null,"c":"x"}],"d":true}',
    );
    expect(canonicalJson({ 9: 'nine', 10: 'ten', '': 'empty' })).toBe(
      '{"":"empty","10":"ten","9":"nine"}',
    );
    expect(canonicalJson({ a: new Point(2, 1), b: new Date(0) })).toBe(
      '{"a":{"x":1,"y":2},"b":"1970-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson({ a: { toJSON: () => ({ z: 1, y: 2 }) } })).toBe('{"a":{"y":2,"z":1}}');
    expect(canonicalJson([Object.assign(Object.create(null), { b: 1, a: 2 })])).toBe(
      '[{"a":2,"b":1}]',
    );
  });

  it('keeps version 1, which writes array-index-like keys first in numeric order', () => {
    const value = {
      b: { 10: 'ten', 9: 'nine', x: [{ 2: 0, 1: 0 }] },
      '': 0,
      4294967295: 'not an index',
    };
    expect(canonicalJson(value, 1)).toBe(
      '{"":0,"4294967295":"not an index","b":{"9":"nine","10":"ten","x":[{"1":0,"2":0}]}}',
    );
    expect(canonicalJson(value)).toBe(
      '{"":0,"4294967295":"not an index","b":{"10":"ten","9":"nine","x":[{"1":0,"2":0}]}}',
    );
    expect(canonicalJson({ a: 1, b: [2] }, 1)).toBe(canonicalJson({ a: 1, b: [2] }));
  });

  it('writes any depth of nesting, in either version', () => {
    let deep: unknown = { 10: 1, 9: 2 };
    for (let depth = 0; depth < 20_000; depth += 1) deep = depth % 2 === 0 ? [deep] : { a: deep };
    const text = canonicalJson(deep);
    expect(text.length).toBe(20_000 * 2 + 10_000 * 4 + '{"10":1,"9":2}'.length);
    expect(text).toContain('{"10":1,"9":2}');
    expect(canonicalJson(deep, 1)).toContain('{"9":2,"10":1}');
  });

  it('throws an InvalidArgumentError on BigInts', () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(InvalidArgumentError);
    expect(() => canonicalJson({ b: 1, a: 1n })).toThrow(InvalidArgumentError);
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws an InvalidArgumentError on cycles', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(InvalidArgumentError);
  });

  it('hashes with SHA-256', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
