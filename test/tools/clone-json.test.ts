import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/tools/clone-json.js';

describe('cloneJson', () => {
  it('copies JSON values deeply, equal to structuredClone (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = cloneJson(value);
        expect(copy).toStrictEqual(structuredClone(value));
        if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an own __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":[1]}');
    const copy = cloneJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copies null-prototype objects into plain ones, as structuredClone does', () => {
    const value = Object.assign(Object.create(null), { b: { c: 1 } });
    const copy = cloneJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toStrictEqual(structuredClone(value));
  });

  it('leaves what is not plain JSON data to structuredClone', () => {
    const shared = { n: 1 };
    const sparse: number[] = [1];
    sparse[2] = 3;
    const tagged = Object.assign([1, 2], { tag: 'x' });
    const value = {
      when: new Date(0),
      map: new Map([[1, 2]]),
      pair: [shared, shared],
      sparse,
      tagged,
    };
    const copy = cloneJson(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(copy.pair[0]).toBe(copy.pair[1]);
    expect(copy.when).toBeInstanceOf(Date);
    expect(1 in copy.sparse).toBe(false);
    expect(copy.tagged.tag).toBe('x');
  });

  it('throws what structuredClone throws for values it cannot clone', () => {
    const cases = [{ run: () => 1 }, { proxy: new Proxy({}, {}) }];
    for (const value of cases) {
      expect(() => cloneJson(value)).toThrow(
        (() => {
          try {
            structuredClone(value);
          } catch (error) {
            return (error as Error).message;
          }
          return 'no error';
        })(),
      );
    }
  });

  it('copies cycles as structuredClone does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const copy = cloneJson(cyclic) as Record<string, unknown>;
    expect(copy.self).toBe(copy);
    expect(copy).not.toBe(cyclic);
  });
});
