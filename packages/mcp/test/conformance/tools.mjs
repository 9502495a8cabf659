// The tools the MCP conformance suite's server scenarios call, for `switchyard mcp serve`: each
// returns what its scenario's description asks for, through Switchyard's ordinary tool path.
import { createToolRegistry, defineTool, toolOutput } from 'switchyard';

// A 1×1 red PNG and a minimal WAV header, base64.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const none = { type: 'object', properties: {} };
const safety = { sideEffectLevel: 'none' };

function tool(name, description, handler, extra = {}) {
  return defineTool({ name, description, inputSchema: none, safety, handler, ...extra });
}

export const registry = createToolRegistry([
  tool('test_simple_text', 'Returns simple text', () =>
    toolOutput({
      value: 'This is a simple text response for testing.',
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    }),
  ),
  tool('test_image_content', 'Returns an image', () =>
    toolOutput({ value: 'image', content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  ),
  tool('test_audio_content', 'Returns audio', () =>
    toolOutput({ value: 'audio', content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  ),
  tool('test_embedded_resource', 'Returns an embedded resource', () =>
    toolOutput({
      value: 'resource',
      content: [
        {
          type: 'resource',
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      ],
    }),
  ),
  tool('test_multiple_content_types', 'Returns text, an image and a resource', () =>
    toolOutput({
      value: 'mixed',
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      ],
    }),
  ),
  tool('test_error_handling', 'Always fails', () => {
    throw new Error('This tool intentionally returns an error for testing');
  }),
  tool('test_tool_with_progress', 'Reports progress 0, 50, 100 of 100', async (_args, runtime) => {
    for (const progress of [0, 50, 100]) {
      runtime.emit({ progress, total: 100 });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'Progress test completed';
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    safety,
    handler: (args) => args,
  }),
]);
