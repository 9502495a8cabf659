import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { TOOL_NAME_PATTERN } from '../../src/tools/tool-names.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/tool-registry.js';

const ANY_OBJECT = { type: 'object' } as const;

function spec(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: `tool ${name}`,
    inputSchema: ANY_OBJECT,
    handler: () => name,
    ...extra,
  };
}

function foreign(name: string) {
  return spec(name, { foreignName: true });
}

describe('createToolRegistry', () => {
  it('lists tools in definition order', () => {
    const registry = createToolRegistry([spec('b'), spec('a'), spec('c')]);
    expect(registry.list().map((tool) => tool.name)).toEqual(['b', 'a', 'c']);
    expect(registry.names()).toEqual(['b', 'a', 'c']);
    expect([...registry].map((tool) => tool.name)).toEqual(['b', 'a', 'c']);
    expect(registry.size).toBe(3);
  });

  it('starts empty without arguments', () => {
    const registry = createToolRegistry();
    expect(registry.size).toBe(0);
    expect(registry.modelDefinitions()).toEqual([]);
  });

  it('accepts tools already defined with defineTool without redefining them', () => {
    const tool = defineTool(spec('echo'));
    expect(createToolRegistry([tool]).get('echo')).toBe(tool);
  });

  it('define returns a new registry and leaves the old one unchanged', () => {
    const first = createToolRegistry([spec('a')]);
    const second = first.define(spec('b'));
    expect(second).not.toBe(first);
    expect(first.names()).toEqual(['a']);
    expect(first.has('b')).toBe(false);
    expect(second.names()).toEqual(['a', 'b']);
  });

  it('without returns a new registry lacking the tool, or the same registry when absent', () => {
    const registry = createToolRegistry([spec('a'), spec('b'), spec('c')]);
    const smaller = registry.without('b');
    expect(smaller.names()).toEqual(['a', 'c']);
    expect(registry.names()).toEqual(['a', 'b', 'c']);
    expect(registry.without('zzz')).toBe(registry);
  });

  it('lets a tool be replaced through without(name).define(spec)', () => {
    const registry = createToolRegistry([spec('a')]);
    const replaced = registry.without('a').define(spec('a', { description: 'new' }));
    expect(replaced.get('a')?.description).toBe('new');
  });

  it('get and has use own names only, never the prototype chain', () => {
    const registry = createToolRegistry([spec('a')]);
    expect(registry.get('a')?.name).toBe('a');
    expect(registry.has('a')).toBe(true);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(registry.get(name)).toBeUndefined();
      expect(registry.has(name)).toBe(false);
      expect(registry.resolve(name)).toBeUndefined();
    }
  });

  it('returns a frozen tool list that cannot be changed from outside', () => {
    const registry = createToolRegistry([spec('a')]);
    expect(Object.isFrozen(registry.list())).toBe(true);
    expect(Object.isFrozen(registry.get('a'))).toBe(true);
  });

  it('modelDefinitions leaves deferred tools out unless they are included by name', () => {
    const registry = createToolRegistry([spec('a'), spec('hidden', { deferLoading: true })]);
    expect(registry.modelDefinitions().map((tool) => tool.name)).toEqual(['a']);
    expect(registry.modelDefinitions(['hidden']).map((tool) => tool.name)).toEqual(['a', 'hidden']);
  });

  it('modelDefinitions shows name, description and the model-visible schema', () => {
    const registry = createToolRegistry([spec('a')]);
    expect(registry.modelDefinitions()).toEqual([
      { name: 'a', canonicalName: 'a', description: 'tool a', inputSchema: ANY_OBJECT },
    ]);
  });

  it('rejects an invalid spec with a ToolDefinitionError', () => {
    expect(() => createToolRegistry([spec('bad name')])).toThrow(ToolDefinitionError);
  });
});

describe('provider-safe aliases of foreign names', () => {
  it('gives an MCP server.tool name an alias and resolves it back', () => {
    const registry = createToolRegistry([foreign('github.create_issue')]);
    expect(registry.aliasOf('github.create_issue')).toBe('github_create_issue');
    expect(registry.resolve('github_create_issue')?.name).toBe('github.create_issue');
    expect(registry.resolve('github.create_issue')?.name).toBe('github.create_issue');
    expect(registry.get('github_create_issue')).toBeUndefined();
    const [definition] = registry.modelDefinitions();
    expect(definition?.name).toBe('github_create_issue');
    expect(definition?.canonicalName).toBe('github.create_issue');
  });

  it('never lets an alias shadow a local name defined before or after it', () => {
    const before = createToolRegistry([spec('srv_read'), foreign('srv.read')]);
    const after = createToolRegistry([foreign('srv.read')]).define(spec('srv_read'));
    for (const registry of [before, after]) {
      expect(registry.aliasOf('srv_read')).toBe('srv_read');
      expect(registry.resolve('srv_read')?.name).toBe('srv_read');
      const alias = registry.aliasOf('srv.read')!;
      expect(alias).not.toBe('srv_read');
      expect(alias).toMatch(TOOL_NAME_PATTERN);
      expect(registry.resolve(alias)?.name).toBe('srv.read');
    }
  });

  it('aliases a 128-character foreign name within 64 characters', () => {
    const name = `server.${'a'.repeat(121)}`;
    const registry = createToolRegistry([foreign(name)]);
    const alias = registry.aliasOf(name)!;
    expect(alias.length).toBeLessThanOrEqual(64);
    expect(registry.resolve(alias)?.name).toBe(name);
  });

  // Small alphabets make collisions (`a.b` against `a_b` or `a-b`) frequent.
  const collidingForeign = fc.string({
    unit: fc.constantFrom('a', 'b', '.', '_', '-'),
    minLength: 1,
    maxLength: 6,
  });
  const longForeign = fc.string({
    unit: fc.constantFrom('a', 'b', 'c', '.', '_', '-', '1'),
    minLength: 60,
    maxLength: 128,
  });
  const anyForeign = fc.string({
    unit: fc.constantFrom(...'abcXYZ0189_.-'.split('')),
    minLength: 1,
    maxLength: 128,
  });
  const localName = fc.string({
    unit: fc.constantFrom('a', 'b', '_', '-'),
    minLength: 1,
    maxLength: 7,
  });

  /** Unique foreign and local names, in a random interleaving. */
  const namesArbitrary = fc
    .tuple(
      fc.uniqueArray(fc.oneof(collidingForeign, longForeign, anyForeign), { maxLength: 12 }),
      fc.uniqueArray(localName, { maxLength: 8 }),
    )
    .chain(([foreignNames, localNames]) => {
      const foreignSet = new Set(foreignNames);
      const entries = [
        ...foreignNames.map((name) => ({ name, foreign: true })),
        ...localNames
          .filter((name) => !foreignSet.has(name))
          .map((name) => ({ name, foreign: false })),
      ];
      return fc.shuffledSubarray(entries, { minLength: entries.length });
    });

  function checkAliases(registry: ToolRegistry): void {
    const aliases = registry.names().map((name) => registry.aliasOf(name)!);
    for (const alias of aliases) expect(alias).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(aliases).size).toBe(aliases.length);
    for (const name of registry.names()) {
      expect(registry.resolve(registry.aliasOf(name)!)?.name).toBe(name);
      // Provider-safe names keep themselves, whatever else is defined.
      if (TOOL_NAME_PATTERN.test(name)) expect(registry.aliasOf(name)).toBe(name);
    }
    const shown = registry.modelDefinitions().map((definition) => definition.name);
    expect(shown).toEqual(aliases);
  }

  it('aliases always match the provider pattern, are unique and resolve back (property)', () => {
    fc.assert(
      fc.property(namesArbitrary, (entries) => {
        const specs = entries.map(({ name, foreign: isForeign }) =>
          isForeign ? foreign(name) : spec(name),
        );
        checkAliases(createToolRegistry(specs));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps aliases unique at every step of incremental define calls (property)', () => {
    fc.assert(
      fc.property(namesArbitrary, (entries) => {
        let registry = createToolRegistry();
        for (const { name, foreign: isForeign } of entries) {
          registry = registry.define(isForeign ? foreign(name) : spec(name));
          checkAliases(registry);
        }
      }),
      { numRuns: 100 },
    );
  });
});
