import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  ToolDefinitionError,
} from '../../src/index.js';
import { TOOL_NAME_PATTERN } from '../../src/tools/index.js';
import { addTool } from '../support/tools.js';

function named(name: string, options: { foreignName?: boolean } = {}) {
  return defineTool({
    name,
    description: name,
    inputSchema: { type: 'object', properties: {} },
    safety: { readOnly: true },
    handler: () => name,
    ...options,
  });
}

function ruleOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (ToolDefinitionError.isInstance(error)) return error.rule;
    throw error;
  }
  return undefined;
}

describe('tool names', () => {
  it.each([
    ['', 'name_empty'],
    ['read file', 'name_whitespace'],
    ['x'.repeat(65), 'name_too_long'],
    ['read/file', 'name_characters'],
    ['héllo', 'name_characters'],
    ['server.tool', 'name_characters'],
  ])('rejects %j with rule %s', (name, rule) => {
    expect(ruleOf(() => named(name))).toBe(rule);
  });

  it('names the rule in the message and hints at foreignName for dotted names', () => {
    expect(() => named('server.tool')).toThrow(/\^\[a-zA-Z0-9_-\]\{1,64\}\$.*foreignName/);
  });

  it('accepts the longest valid name', () => {
    expect(named('a'.repeat(64)).name).toHaveLength(64);
  });

  it('rejects a duplicate name, even through define', () => {
    const registry = createToolRegistry([named('alpha')]);
    expect(ruleOf(() => registry.define(named('alpha')))).toBe('name_duplicate');
    expect(ruleOf(() => createToolRegistry([named('beta'), named('beta')]))).toBe('name_duplicate');
  });

  it('accepts foreign names up to 128 characters and refuses longer ones', () => {
    expect(named(`s.${'t'.repeat(126)}`, { foreignName: true }).name).toHaveLength(128);
    expect(ruleOf(() => named(`s.${'t'.repeat(127)}`, { foreignName: true }))).toBe(
      'name_too_long',
    );
  });
});

describe('the registry', () => {
  it('is immutable: define and without return new registries', () => {
    const empty = createToolRegistry();
    const one = empty.define(named('alpha'));
    const two = one.define(named('beta'));
    expect(empty.size).toBe(0);
    expect(one.names()).toEqual(['alpha']);
    expect(two.names()).toEqual(['alpha', 'beta']);
    const without = two.without('alpha');
    expect(without.names()).toEqual(['beta']);
    expect(two.has('alpha')).toBe(true);
    expect(two.without('missing')).toBe(two);
  });

  it('lists tools in definition order and looks them up by own property only', () => {
    const registry = createToolRegistry([named('zeta'), named('alpha'), named('mid')]);
    expect(registry.list().map((tool) => tool.name)).toEqual(['zeta', 'alpha', 'mid']);
    expect(registry.get('alpha')?.name).toBe('alpha');
    expect(registry.get('constructor')).toBeUndefined();
    expect(registry.has('__proto__')).toBe(false);
    expect(registry.resolve('toString')).toBeUndefined();
  });

  it('leaves deferred tools out of the model definitions unless included', () => {
    const deferred = defineTool({ ...named('hidden'), deferLoading: true });
    const registry = createToolRegistry([named('shown'), deferred]);
    expect(registry.modelDefinitions().map((definition) => definition.name)).toEqual(['shown']);
    expect(registry.modelDefinitions(['hidden']).map((definition) => definition.name)).toEqual([
      'shown',
      'hidden',
    ]);
  });
});

describe('provider-safe aliases of foreign names', () => {
  it('maps a dotted name to a provider-safe alias that resolves back', () => {
    const registry = createToolRegistry([named('github.create_issue', { foreignName: true })]);
    const alias = registry.aliasOf('github.create_issue');
    expect(alias).toBe('github_create_issue');
    expect(registry.resolve(alias!)?.name).toBe('github.create_issue');
    expect(registry.modelDefinitions()[0]).toMatchObject({
      name: alias,
      canonicalName: 'github.create_issue',
    });
  });

  it('never lets an alias shadow a local name, whatever the definition order', () => {
    const local = named('github_create_issue');
    const foreign = named('github.create_issue', { foreignName: true });
    for (const registry of [
      createToolRegistry([local, foreign]),
      createToolRegistry([foreign, local]),
    ]) {
      const alias = registry.aliasOf('github.create_issue')!;
      expect(alias).not.toBe('github_create_issue');
      expect(alias).toMatch(TOOL_NAME_PATTERN);
      expect(registry.resolve('github_create_issue')?.name).toBe('github_create_issue');
      expect(registry.resolve(alias)?.name).toBe('github.create_issue');
    }
  });

  it('gives any set of foreign and local names unique, valid, reversible aliases', () => {
    const segment = fc.stringMatching(/^[a-z0-9_.-]{1,40}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.tuple(segment, segment).map(([a, b]) => `${a}.${b}`.slice(0, 128)),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9_-]{1,64}$/), { maxLength: 6 }),
        (foreignNames, localNames) => {
          const locals = localNames.filter((name) => !foreignNames.includes(name));
          const tools = [
            ...foreignNames.map((name) => named(name, { foreignName: true })),
            ...locals.map((name) => named(name)),
          ];
          const registry = createToolRegistry(tools);
          const aliases = registry.names().map((name) => registry.aliasOf(name)!);
          expect(new Set(aliases).size).toBe(aliases.length);
          for (const name of registry.names()) {
            const alias = registry.aliasOf(name)!;
            expect(alias).toMatch(TOOL_NAME_PATTERN);
            expect(registry.resolve(alias)?.name).toBe(name);
          }
          for (const local of locals) expect(registry.aliasOf(local)).toBe(local);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('dispatches a call made with the alias and reports the canonical name', async () => {
    const tool = defineTool({
      name: 'files.read',
      foreignName: true,
      description: 'read',
      inputSchema: { type: 'object', properties: {} },
      safety: { readOnly: true },
      handler: () => 'contents',
    });
    const registry = createToolRegistry([tool, addTool]);
    const dispatcher = createDispatcher({ registry });
    const events: string[] = [];
    dispatcher.events$.subscribe((event) => events.push(event.toolName));
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: registry.aliasOf('files.read')!,
      arguments: '{}',
    });
    expect(result).toMatchObject({ ok: true, toolName: 'files.read', result: 'contents' });
    expect(new Set(events)).toEqual(new Set(['files.read']));
  });
});
