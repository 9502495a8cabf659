import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import {
  assertToolName,
  FOREIGN_TOOL_NAME_PATTERN,
  providerSafeAlias,
  TOOL_NAME_PATTERN,
} from '../../src/tools/tool-names.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

function spec(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: 'd',
    inputSchema: { type: 'object' },
    handler: () => null,
    ...extra,
  };
}

function ruleOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return (error as ToolDefinitionError).rule;
  }
  return undefined;
}

describe('tool name rules', () => {
  it.each([
    ['', 'name_empty'],
    ['read file', 'name_whitespace'],
    ['tab\there', 'name_whitespace'],
    ['a'.repeat(65), 'name_too_long'],
    ['fs.read', 'name_characters'],
    ['héllo', 'name_characters'],
    ['a/b', 'name_characters'],
    ['quote"d', 'name_characters'],
    ['<tool>', 'name_characters'],
  ])('defineTool rejects %j with rule %s', (name, rule) => {
    expect(ruleOf(() => defineTool(spec(name)))).toBe(rule);
  });

  it('rejects a name that is not a string', () => {
    expect(ruleOf(() => assertToolName(42))).toBe('name_type');
  });

  it('accepts letters, digits, underscores and dashes up to 64 characters', () => {
    for (const name of ['a', 'read_file', 'Get-Weather-2', 'x'.repeat(64)]) {
      expect(defineTool(spec(name)).name).toBe(name);
    }
  });

  it('rejects a duplicate name in a registry with rule name_duplicate', () => {
    expect(ruleOf(() => createToolRegistry([spec('echo'), spec('echo')]))).toBe('name_duplicate');
    const registry = createToolRegistry([spec('echo')]);
    expect(ruleOf(() => registry.define(spec('echo')))).toBe('name_duplicate');
  });

  it('hints at foreignName when a dotted name is defined as a local tool', () => {
    expect(() => defineTool(spec('server.tool'))).toThrow(/foreignName: true/);
  });

  it('accepts dotted MCP names up to 128 characters only with foreignName', () => {
    expect(defineTool(spec('server.tool', { foreignName: true })).name).toBe('server.tool');
    expect(defineTool(spec('s'.repeat(128), { foreignName: true })).foreignName).toBe(true);
    expect(ruleOf(() => defineTool(spec('s'.repeat(129), { foreignName: true })))).toBe(
      'name_too_long',
    );
    expect(ruleOf(() => defineTool(spec('srv/tool', { foreignName: true })))).toBe(
      'name_characters',
    );
    expect(ruleOf(() => defineTool(spec('srv tool', { foreignName: true })))).toBe(
      'name_whitespace',
    );
  });

  it('names the offending tool on the error', () => {
    const error = (() => {
      try {
        defineTool(spec('bad name'));
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).toolName).toBe('bad name');
    expect((error as ToolDefinitionError).code).toBe('SY_ERR_INVALID_TOOL_DEFINITION');
  });
});

describe('providerSafeAlias', () => {
  it('keeps a provider-safe name that is free', () => {
    expect(providerSafeAlias('read_file', new Set())).toBe('read_file');
  });

  it('replaces characters outside the provider rule with underscores', () => {
    expect(providerSafeAlias('github.create_issue', new Set())).toBe('github_create_issue');
  });

  it('appends a hash of the original name when the sanitized name is taken', () => {
    const alias = providerSafeAlias('github.create_issue', new Set(['github_create_issue']));
    expect(alias).toMatch(/^github_create_issue_[0-9a-f]{8}$/);
    expect(alias).toMatch(TOOL_NAME_PATTERN);
  });

  it('cuts a long foreign name to 64 characters with a hash', () => {
    const long = `server.${'x'.repeat(120)}`;
    expect(long).toMatch(FOREIGN_TOOL_NAME_PATTERN);
    const alias = providerSafeAlias(long, new Set());
    expect(alias.length).toBe(64);
    expect(alias).toMatch(TOOL_NAME_PATTERN);
  });
});
