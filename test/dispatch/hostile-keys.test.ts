import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallEvent } from '../../src/dispatch/events.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { canonicalJson } from '../../src/tools/canonical-json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

/** A JSON tree whose objects may carry the keys that pollute prototypes when mishandled. */
type Tree =
  | { readonly leaf: unknown }
  | { readonly entries: ReadonlyArray<readonly [string, Tree]> };

const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'polluted',
  'toString',
  'hasOwnProperty',
  'city',
  'a',
);

const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: fc.jsonValue({ maxDepth: 1 }) }),
    fc.record({
      entries: fc.array(fc.tuple(hostileKey, tie('tree')), { maxLength: 5 }),
    }),
  ),
}));

const objectTree = fc.record({ entries: fc.array(fc.tuple(hostileKey, tree), { maxLength: 6 }) });

/** JSON text with the keys written literally, duplicates and `__proto__` included. */
function toJson(node: Tree): string {
  if ('leaf' in node) return JSON.stringify(node.leaf) ?? 'null';
  return `{${node.entries.map(([key, child]) => `${JSON.stringify(key)}:${toJson(child)}`).join(',')}}`;
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

function expectPrototypeIntact(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect({}.constructor).toBe(Object);
  expect(typeof {}.toString).toBe('function');
}

function setup() {
  // A loose tool that spreads, walks and hashes its arguments; a strict one that rejects extras.
  const loose = recordingTool({ name: 'loose' }).respondsWith(({ args }) => ({
    copy: { ...args },
    keys: Object.keys(args),
    hash: canonicalJson(args),
  }));
  const strict = recordingTool({
    name: 'strict',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' } },
      additionalProperties: false,
    },
  });
  const writer = recordingTool({ name: 'writer', safety: { sideEffectLevel: 'workspace_write' } });
  // A layer that rewrites arguments by spreading them, as middleware does.
  const rewriting = composeToolCallers([
    function rewrite(call: ToolCallEnvelope, next): Promise<ToolCallResult> {
      return next({ ...call, toolArgs: { ...call.toolArgs } });
    },
  ]);
  const registry = createToolRegistry([loose.tool, strict.tool, writer.tool]);
  return {
    plain: createDispatcher({ registry }),
    layered: createDispatcher({ registry, caller: rewriting }),
  };
}

const toolName = fc.constantFrom(
  'loose',
  'strict',
  'writer',
  '__proto__',
  'constructor',
  'prototype',
);

describe('hostile argument keys', () => {
  afterEach(expectPrototypeIntact);

  it('never throw, always yield exactly one result and never pollute Object.prototype (property)', async () => {
    const dispatchers = setup();
    await fc.assert(
      fc.asyncProperty(
        objectTree,
        toolName,
        fc.constantFrom('text', 'parsed'),
        fc.boolean(),
        async (node, name, form, layered) => {
          const dispatcher = layered ? dispatchers.layered : dispatchers.plain;
          const events: ToolCallEvent[] = [];
          const subscription = dispatcher.events$.subscribe((event) => events.push(event));
          const text = toJson(node);
          const args = form === 'text' ? text : JSON.parse(text);
          let result: ToolCallResult | undefined;
          await expect(
            (async () => {
              result = await dispatcher.dispatch({ id: 'hostile', name, arguments: args });
            })(),
          ).resolves.toBeUndefined();
          expect(result?.toolCallId).toBe('hostile');
          expect(typeof result?.status).toBe('string');
          const finished = events.filter(
            (event) =>
              event.type === 'tool_call_update' &&
              (event.status === 'completed' || event.status === 'failed'),
          );
          subscription.unsubscribe();
          expect(finished).toHaveLength(1);
          expectPrototypeIntact();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a __proto__ key as plain data that reaches the handler', async () => {
    const tool = recordingTool({ name: 'loose' });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'loose',
      arguments: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":1}}}',
    });
    expect(result.status).toBe('ok');
    const args = tool.lastCall!.args as Record<string, unknown>;
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor']);
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(args.polluted).toBeUndefined();
    expect(result.renderedResult).toContain('"__proto__":{"polluted":true}');
  });

  it('refuses a __proto__ key where the schema allows no extra properties', async () => {
    const tool = recordingTool({
      name: 'strict',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' } },
        additionalProperties: false,
      },
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'strict',
      arguments: '{"__proto__":{"city":1}}',
    });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('__proto__');
    expect(tool.callCount).toBe(0);
  });
});
