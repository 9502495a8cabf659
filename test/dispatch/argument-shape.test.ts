import { describe, expect, it } from 'vitest';
import { argumentShapeProblem } from '../../src/dispatch/argument-shape.js';
import { readProposedCall, UnreadableCall } from '../../src/dispatch/read-proposed-call.js';

const limits = { maxDepth: 8, maxValues: 1_000 };

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return value;
}

describe('argumentShapeProblem', () => {
  it('accepts arguments exactly as deep as the limit and refuses one level more', () => {
    expect(argumentShapeProblem(nested(8), limits)).toBeNull();
    expect(argumentShapeProblem(nested(9), limits)).toBe(
      'arguments are nested too deeply (more than 8 levels)',
    );
  });

  it('walks a million levels without overflowing the stack', () => {
    let value: unknown = 'x';
    for (let level = 0; level < 1_000_000; level += 1) value = [value];
    expect(argumentShapeProblem({ path: value }, { maxDepth: 256, maxValues: 1 << 20 })).toMatch(
      /more than 256 levels/,
    );
  });

  it('refuses a cycle but allows a value shared by two members', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(argumentShapeProblem(cyclic, limits)).toMatch(/cycle/);
    const shared = { x: 1 };
    expect(argumentShapeProblem({ from: shared, to: shared }, limits)).toBeNull();
  });

  it('bounds the work of values shared exponentially often', () => {
    let value: unknown = 'x';
    for (let level = 0; level < 7; level += 1) value = [value, value, value, value];
    expect(argumentShapeProblem({ value }, limits)).toBe('arguments hold more than 1000 values');
  });

  it('refuses arguments whose getters throw', () => {
    const args = Object.defineProperty({}, 'path', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(argumentShapeProblem(args, limits)).toBe('arguments could not be read (no)');
  });

  it('treats __proto__ and constructor keys as plain data', () => {
    const args = JSON.parse('{"__proto__":{"polluted":[1]},"constructor":{"prototype":{}}}');
    expect(argumentShapeProblem(args, limits)).toBeNull();
  });
});

describe('readProposedCall', () => {
  it('reads id, name and arguments exactly once each', () => {
    const reads: string[] = [];
    const call = {};
    for (const key of ['id', 'name', 'arguments'])
      Object.defineProperty(call, key, {
        get() {
          reads.push(key);
          return key === 'arguments' ? '{}' : `x${reads.length}`;
        },
      });
    expect(readProposedCall(call)).toStrictEqual({ id: 'x1', name: 'x2', arguments: '{}' });
    expect(reads).toEqual(['id', 'name', 'arguments']);
  });

  it('says why a call cannot be read and keeps the id it could read', () => {
    expect(readProposedCall(7)).toStrictEqual(
      new UnreadableCall(undefined, 'the call is a number, not an object'),
    );
    const exploding = Object.defineProperty({ id: 'c1' }, 'arguments', {
      get() {
        throw new Error('gone');
      },
    });
    expect(readProposedCall(exploding)).toStrictEqual(
      new UnreadableCall('c1', 'the call could not be read: reading its `arguments` threw (gone)'),
    );
  });

  it('reads a stand-in for an unreadable call the same way again', () => {
    const first = readProposedCall([]);
    expect(first).toBeInstanceOf(UnreadableCall);
    expect(readProposedCall(first)).toBe(first);
  });
});
