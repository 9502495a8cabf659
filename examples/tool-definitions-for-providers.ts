// How a tool reaches each provider: input examples (native on Anthropic, in the description on
// OpenAI and MCP) and OpenAI's strict schemas, with the reasons a schema cannot be strict.
// Run: npm run build && npx tsx examples/tool-definitions-for-providers.ts
import { toAnthropicTools } from '@switchyard/anthropic';
import { toChatTools, toOpenAIStrictSchema } from '@switchyard/openai';
import { createToolRegistry, defineTool } from 'switchyard';

// #region input-examples
const searchOrders = defineTool({
  name: 'search_orders',
  description: 'Search the orders of a customer.',
  inputSchema: {
    type: 'object',
    properties: {
      customer: { type: 'string', format: 'email' },
      placed: {
        type: 'object',
        properties: { after: { type: 'string', format: 'date' } },
        additionalProperties: false,
      },
      limit: { type: 'integer', maximum: 50, default: 10 },
    },
    required: ['customer'],
    additionalProperties: false,
  },
  // Checked against inputSchema here: an example that would fail validation throws.
  inputExamples: [
    { customer: 'ada@example.com' },
    { customer: 'ada@example.com', placed: { after: '2026-01-01' }, limit: 5 },
  ],
  safety: { readOnly: true },
  handler: ({ customer }) => `orders of ${customer}`,
});
// #endregion input-examples

const registry = createToolRegistry([searchOrders]);

// Anthropic: `input_examples` beside `input_schema`.
console.log(JSON.stringify(toAnthropicTools(registry.modelDefinitions())[0], null, 2));

// #region strict-report
for (const definition of registry.modelDefinitions()) {
  const conversion = toOpenAIStrictSchema(definition.inputSchema);
  if (conversion.strict) console.log(definition.name, 'goes strict');
  else console.log(definition.name, 'stays non-strict:', conversion.reasons.join('; '));
}
// #endregion strict-report

// OpenAI: the examples in the description, the schema in the strict subset.
console.log(JSON.stringify(toChatTools(registry.modelDefinitions(), { strict: true })[0], null, 2));
