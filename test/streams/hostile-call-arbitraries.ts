import { types } from 'node:util';
import fc from 'fast-check';
import { createDispatcher, createToolRegistry } from '../../src/index.js';
import { recordingTool } from '../../src/testing/index.js';

/** Keys that pollute prototypes or confuse lookups when handled carelessly. */
export const oddKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'path',
  'paths',
  '',
  'a',
);

/** Strings with lone surrogates (invalid UTF-16), control characters and astral code points. */
export const oddString = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    maxLength: 4,
  }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** JSON text nested `depth` levels deep under `key`, as arrays or objects. */
export function deepJson(key: string, depth: number, shape: 'array' | 'object'): string {
  const inner =
    shape === 'array'
      ? `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return `{${JSON.stringify(key)}:${inner}}`;
}

/** A value nested `depth` arrays deep, built without recursion. */
export function deepArray(depth: number): unknown {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

function cyclic(key: string): Record<string, unknown> {
  const object: Record<string, unknown> = { path: 'a' };
  // Defined, not assigned: `__proto__` becomes an own key pointing back at the object.
  return Object.defineProperty(object, key, { value: object, enumerable: true });
}

function throwingGetter(key: string): Record<string, unknown> {
  return Object.defineProperty({ path: 'a' }, key, {
    enumerable: true,
    get() {
      throw new Error(`getter ${key} exploded`);
    },
  });
}

const jsonish = fc.jsonValue({ maxDepth: 3 });

/** Argument values a model (or a careless caller) might send: text, objects, and worse. */
export const hostileArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', '{', '[1,2]', '"text"', '{"path": tru', 42, true),
  fc.dictionary(oddKey, jsonish, { maxKeys: 4 }).map((args) => JSON.stringify(args)),
  fc.dictionary(oddKey, oddString, { maxKeys: 3 }),
  fc
    .tuple(oddKey, oddString)
    .map(([key, text]) => `{${JSON.stringify(key)}:${JSON.stringify(text)}}`),
  fc
    .tuple(
      fc.constantFrom('path', 'paths', 'a'),
      fc.integer({ min: 200, max: 6000 }),
      fc.constantFrom<'array' | 'object'>('array', 'object'),
    )
    .map(([key, depth, shape]) => deepJson(key, depth, shape)),
  fc.integer({ min: 200, max: 6000 }).map((depth) => ({ path: deepArray(depth) })),
  fc
    .integer({ min: 1, max: 40 })
    .map((width) => ({ paths: Array.from({ length: width }, (_, i) => `f${i}`) })),
  oddKey.map(cyclic),
  oddKey.map(throwingGetter),
  fc.integer({ min: 1, max: 3 }).map((times) => `{"path":"${'€'.repeat(times * 30_000)}"}`),
);

/** A call whose `key` getter throws. */
function callWithThrowingGetter(key: 'id' | 'name' | 'arguments', name: string): unknown {
  return Object.defineProperty({ id: `getter_${key}`, name, arguments: '{}' }, key, {
    get() {
      throw new Error(`${key} getter exploded`);
    },
  });
}

/** A proxy whose traps throw for every named key (symbols pass, for the test runner's probes). */
function explodingProxy(): unknown {
  const boom = (): never => {
    throw new Error('proxy trap exploded');
  };
  return new Proxy(
    {},
    {
      get: (_target, key) => (typeof key === 'symbol' ? undefined : boom()),
      has: (_target, key) => typeof key !== 'symbol' && boom(),
      ownKeys: boom,
      getOwnPropertyDescriptor: (_target, key) => (typeof key === 'symbol' ? undefined : boom()),
    },
  );
}

export const toolName = fc.constantFrom(
  'read',
  'write',
  'strict',
  'confirm',
  'nope',
  '',
  '__proto__',
  'constructor',
);

/** Hostile entries of a turn's call list: not calls at all, exploding objects, odd calls. */
export const hostileCall: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, 'read', [], true) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom<'id' | 'name' | 'arguments'>('id', 'name', 'arguments'), toolName)
      .map(([key, name]) => callWithThrowingGetter(key, name)),
  },
  { weight: 1, arbitrary: fc.constant(null).map(explodingProxy) },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(undefined, 7, null)),
        name: fc.oneof(toolName, fc.constantFrom(undefined, 3, null)),
        arguments: hostileArguments,
      },
      { requiredKeys: ['name'] },
    ),
  },
);

/** The id a result must keep: a non-empty string id the call carried as plain data. */
export function readableId(call: unknown): string | undefined {
  if (typeof call !== 'object' || call === null || Array.isArray(call) || types.isProxy(call))
    return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(call, 'id');
  if (descriptor === undefined || !('value' in descriptor)) return undefined;
  return typeof descriptor.value === 'string' && descriptor.value !== ''
    ? descriptor.value
    : undefined;
}

/** Tools of every scheduling kind: free, resource-keyed, strict schema, exclusive. */
export function hostileSetup(maxArgumentChars = 64 * 1024) {
  const read = recordingTool({ name: 'read' });
  const write = recordingTool({
    name: 'write',
    safety: { sideEffectLevel: 'workspace_write', filesystem: true },
    resourceParams: ['path', 'paths'],
  });
  const strict = recordingTool({
    name: 'strict',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
  });
  const confirm = recordingTool({
    name: 'confirm',
    safety: { readOnly: true, requiresConfirmation: true },
  });
  const tools = [read, write, strict, confirm];
  const registry = createToolRegistry(tools.map((tool) => tool.tool));
  const dispatcher = createDispatcher({ registry, maxArgumentChars });
  const executions = () => tools.reduce((sum, tool) => sum + tool.callCount, 0);
  return { registry, dispatcher, executions };
}

/** Rejects when `promise` has not settled within `ms`: a hang fails the property. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
