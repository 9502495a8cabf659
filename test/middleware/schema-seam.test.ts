import { describe, expect, it } from 'vitest';
import {
  createToolRegistry,
  InvalidOptionError,
  ToolDefinitionError,
  toolInjectParam,
  toolsUseMiddleware,
} from '../../src/index.js';
import { addTool, writeTool } from '../support/tools.js';

const registry = createToolRegistry([addTool, writeTool()]);

describe('toolsUseMiddleware', () => {
  it('rewrites tools, drops those the transform returns null for, and keeps handler schemas', () => {
    const result = toolsUseMiddleware(registry, (tool) =>
      tool.name === 'write_file' ? null : { ...tool, description: `${tool.description} (audited)` },
    );
    expect(result.names()).toEqual(['add']);
    expect(result.get('add')?.description).toBe('Add two numbers. (audited)');
    expect(result.get('add')?.handlerSchema).toBe(addTool.inputSchema);
    expect(registry.names()).toEqual(['add', 'write_file']);
  });

  it('throws a definition error when the transform returns something else', () => {
    expect(() => toolsUseMiddleware(registry, () => 'nope' as never)).toThrow(ToolDefinitionError);
    expect(() => toolsUseMiddleware(registry, () => [] as never)).toThrow(/returned an array/);
    expect(() => toolsUseMiddleware(registry, 'nope' as never)).toThrow(InvalidOptionError);
  });
});

describe('toolInjectParam', () => {
  it('adds a property and lists it in required, without a required flag inside it', () => {
    const injected = toolInjectParam(
      addTool,
      'reason',
      { type: 'string', required: true },
      { required: true },
    );
    expect(injected.inputSchema.properties).toMatchObject({ reason: { type: 'string' } });
    expect((injected.inputSchema.properties as Record<string, object>).reason).not.toHaveProperty(
      'required',
    );
    expect(injected.inputSchema.required).toEqual(['a', 'b', 'reason']);
    expect(injected.handlerSchema).toBe(addTool.inputSchema);
  });

  it('is idempotent and additive', () => {
    const once = toolInjectParam(addTool, 'reason', { type: 'string' });
    expect(toolInjectParam(once, 'reason', { type: 'number' })).toBe(once);
    expect(toolInjectParam(addTool, 'a', { type: 'string' })).toBe(addTool);
    const optional = toolInjectParam(addTool, 'note', { type: 'string' }, { required: false });
    expect(optional.inputSchema.required).toEqual(['a', 'b']);
  });

  it("keeps a nested object schema's own required list", () => {
    const nested = toolInjectParam(addTool, 'meta', {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
    expect(
      (nested.inputSchema.properties as Record<string, { required?: unknown }>).meta?.required,
    ).toEqual(['id']);
  });

  it('works through a registry, and the result still validates', () => {
    const advertised = toolsUseMiddleware(registry, (tool) =>
      toolInjectParam(tool, 'reason', { type: 'string' }),
    );
    expect(advertised.get('write_file')?.inputSchema.required).toEqual(['reason']);
    expect(
      advertised.validator.check('add', advertised.get('add')!.inputSchema, {
        a: 1,
        b: 2,
        reason: 'x',
      }).valid,
    ).toBe(true);
  });
});
