import { describe, expect, it } from 'vitest';
import { toolInjectParam } from '../../src/middleware/tool-inject-param.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonSchema } from '../../src/tools/json.js';
import type { ToolSpec } from '../../src/tools/tool-spec.js';

const SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
};

function tool(inputSchema: JsonSchema = SCHEMA): ToolSpec & { inputSchema: JsonSchema } {
  return { name: 'read_file', description: 'd', inputSchema, handler: () => null };
}

const REASON = { type: 'string', description: 'Why you call this tool' };

describe('toolInjectParam', () => {
  it('adds the property and lists it as required by default', () => {
    const injected = toolInjectParam(tool(), 'reason', REASON);
    expect(injected.inputSchema).toEqual({
      type: 'object',
      properties: { path: { type: 'string' }, reason: REASON },
      required: ['path', 'reason'],
    });
  });

  it('is additive: the original tool and its schema are left unchanged', () => {
    const original = tool();
    const before = structuredClone(original.inputSchema);
    const injected = toolInjectParam(original, 'reason', REASON);
    expect(injected).not.toBe(original);
    expect(original.inputSchema).toEqual(before);
    expect(original.inputSchema).toBe(SCHEMA);
  });

  it('is idempotent: an existing property is left as it is', () => {
    const once = toolInjectParam(tool(), 'reason', REASON);
    const twice = toolInjectParam(once, 'reason', { type: 'number' });
    expect(twice).toBe(once);
    expect(toolInjectParam(tool(), 'path', { type: 'number' }).inputSchema).toBe(SCHEMA);
  });

  it('does not list an optional parameter as required', () => {
    const injected = toolInjectParam(tool(), 'note', REASON, { required: false });
    expect(injected.inputSchema.required).toEqual(['path']);
    const bare = toolInjectParam(tool({ type: 'object' }), 'note', REASON, { required: false });
    expect(Object.hasOwn(bare.inputSchema, 'required')).toBe(false);
  });

  it('does not list a required name twice', () => {
    const schema = { type: 'object', properties: {}, required: ['reason'] };
    expect(toolInjectParam(tool(schema), 'reason', REASON).inputSchema.required).toEqual([
      'reason',
    ]);
  });

  it('creates properties and required on a schema that has none', () => {
    expect(toolInjectParam(tool({ type: 'object' }), 'reason', REASON).inputSchema).toEqual({
      type: 'object',
      properties: { reason: REASON },
      required: ['reason'],
    });
  });

  it('puts requiredness in the required array only, never a boolean inside the property', () => {
    const injected = toolInjectParam(tool(), 'reason', { ...REASON, required: true });
    const properties = injected.inputSchema.properties as Record<string, JsonSchema>;
    expect(properties.reason).toEqual(REASON);
    expect(Object.hasOwn(properties.reason!, 'required')).toBe(false);
    expect(injected.inputSchema.required).toContain('reason');
    // A boolean required would be a typo-level schema error: the result must define cleanly.
    expect(() => defineTool(injected)).not.toThrow();
  });

  it("keeps a nested object's own required array", () => {
    const fragment = {
      type: 'object',
      properties: { ticket: { type: 'string' } },
      required: ['ticket'],
    };
    const injected = toolInjectParam(tool(), 'approval', fragment);
    const properties = injected.inputSchema.properties as Record<string, JsonSchema>;
    expect(properties.approval).toEqual(fragment);
  });

  it('keeps the original schema as the handler schema', () => {
    const injected = toolInjectParam(tool(), 'reason', REASON);
    expect(injected.handlerSchema).toBe(SCHEMA);
    const twice = toolInjectParam(injected, 'trace_id', { type: 'string' });
    expect(twice.handlerSchema).toBe(SCHEMA);
  });

  it('works on a defined tool and the result defines again', () => {
    const defined = defineTool(tool());
    const redefined = defineTool(toolInjectParam(defined, 'reason', REASON));
    expect(redefined.handlerSchema).toBe(SCHEMA);
    expect(Object.keys(redefined.inputSchema.properties as object)).toEqual(['path', 'reason']);
  });
});
