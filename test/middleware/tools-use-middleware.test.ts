import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { InvalidOptionError, ToolDefinitionError } from '../../src/errors.js';
import { toolInjectParam } from '../../src/middleware/tool-inject-param.js';
import {
  type ToolTransform,
  toolsUseMiddleware,
} from '../../src/middleware/tools-use-middleware.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/tool-registry.js';

const SCHEMA = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };

function registry() {
  const search = recordingTool({ name: 'search', inputSchema: SCHEMA }).returns('hits');
  const shell = recordingTool({ name: 'shell', safety: { shell: true } }).returns('ran');
  const fetch = recordingTool({ name: 'fetch' }).returns('page');
  return { search, registry: createToolRegistry([search.tool, shell.tool, fetch.tool]) };
}

describe('toolsUseMiddleware', () => {
  it('rewrites every tool and returns a new registry, leaving the old one unchanged', () => {
    const { registry: original } = registry();
    const rewritten = toolsUseMiddleware(original, (tool) => ({
      ...tool,
      description: `[audited] ${tool.description}`,
    }));
    expect(rewritten).not.toBe(original);
    expect(rewritten.list().map((tool) => tool.description)).toEqual([
      '[audited] recording tool search',
      '[audited] recording tool shell',
      '[audited] recording tool fetch',
    ]);
    expect(original.get('search')?.description).toBe('recording tool search');
  });

  it('drops a tool when the transform returns null', () => {
    const { registry: original } = registry();
    const safe = toolsUseMiddleware(original, (tool) => (tool.safety.shell ? null : tool));
    expect(safe.names()).toEqual(['search', 'fetch']);
  });

  it('keeps a tool returned unchanged as the very same tool', () => {
    const { registry: original } = registry();
    const same = toolsUseMiddleware(original, (tool) => tool);
    expect(same.get('search')).toBe(original.get('search'));
  });

  it.each([
    ['a string', 'search'],
    ['a number', 42],
    ['an array', []],
    ['undefined', undefined],
    ['true', true],
  ])('throws ToolDefinitionError when the transform returns %s', (_label, value) => {
    const { registry: original } = registry();
    const transform = (() => value) as unknown as ToolTransform;
    expect(() => toolsUseMiddleware(original, transform)).toThrow(ToolDefinitionError);
    expect(() => toolsUseMiddleware(original, transform)).toThrow(
      expect.objectContaining({ rule: 'transform_result', toolName: 'search' }),
    );
  });

  it('rethrows what the transform throws', () => {
    const { registry: original } = registry();
    const failure = new Error('transform failed');
    expect(() =>
      toolsUseMiddleware(original, () => {
        throw failure;
      }),
    ).toThrow(failure);
  });

  it('rejects a transform that is not a function and a registry that is not one', () => {
    const { registry: original } = registry();
    expect(() => toolsUseMiddleware(original, 'x' as unknown as ToolTransform)).toThrow(
      InvalidOptionError,
    );
    expect(() => toolsUseMiddleware({} as ToolRegistry, (tool) => tool)).toThrow(
      InvalidOptionError,
    );
  });

  it('preserves the handler schema when the model-visible schema changes', async () => {
    const { search, registry: original } = registry();
    const advertised = toolsUseMiddleware(original, (tool) =>
      toolInjectParam(tool, 'reason', { type: 'string' }),
    );
    const tool = advertised.get('search')!;
    expect(tool.handlerSchema).toBe(SCHEMA);
    expect(tool.inputSchema.required).toEqual(['q', 'reason']);
    const shown = advertised.modelDefinitions().find((definition) => definition.name === 'search');
    expect(shown?.inputSchema.required).toEqual(['q', 'reason']);
    // The handler survives the rewrite.
    const dispatcher = createDispatcher({ registry: advertised });
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'search',
      arguments: { q: 'x', reason: 'why' },
    });
    expect(result.status).toBe('ok');
    expect(search.callCount).toBe(1);
  });

  it('keeps a handler schema through a rewrite that replaces the input schema wholesale', () => {
    const { registry: original } = registry();
    const rewritten = toolsUseMiddleware(original, (tool) => ({
      ...tool,
      handlerSchema: undefined,
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    }));
    expect(rewritten.get('search')?.handlerSchema).toBe(SCHEMA);
  });

  it('keeps the registry validator, so unchanged schemas are not compiled again', () => {
    const validator = new SchemaValidator();
    const spec = { name: 'search', description: 'd', inputSchema: SCHEMA, handler: () => null };
    const original = createToolRegistry([spec], { validator });
    const compiled = validator.compileCount;
    expect(compiled).toBe(1);
    const rewritten = toolsUseMiddleware(original, (tool) => ({ ...tool, description: 'new' }));
    expect(rewritten.validator).toBe(validator);
    expect(validator.compileCount).toBe(compiled);
  });
});
