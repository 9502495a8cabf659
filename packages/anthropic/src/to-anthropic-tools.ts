import type { Anthropic } from '@anthropic-ai/sdk';
import type { ModelToolDefinition } from 'switchyard/tools';

/**
 * Maps model-facing tool definitions (`registry.modelDefinitions()`) onto Messages API client
 * tools: `{name, description, input_schema, input_examples?}` (the tool's `inputExamples`, sent
 * natively). The name is the provider-safe alias, which is what the model will call; the
 * detector resolves it back to the canonical name. An empty description is left out rather than
 * sent empty.
 *
 * @returns one `Tool` per definition, in order.
 * @example
 * const tools = toAnthropicTools(registry.modelDefinitions());
 * // [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', ... } }]
 */
export function toAnthropicTools(
  definitions: readonly ModelToolDefinition[],
): Anthropic.Messages.Tool[] {
  return definitions.map((definition) => ({
    name: definition.name,
    ...(definition.description === '' ? {} : { description: definition.description }),
    input_schema: definition.inputSchema as Anthropic.Messages.Tool.InputSchema,
    // Anthropic's own field for example inputs (platform.claude.com/docs/en/agents-and-tools/
    // tool-use/define-tools, "input_examples"): an array of input objects.
    ...(definition.inputExamples === undefined
      ? {}
      : { input_examples: definition.inputExamples.map((example) => ({ ...example })) }),
  }));
}
