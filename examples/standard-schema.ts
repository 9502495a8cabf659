// docs/standard-schema.md: a tool whose schema is a zod schema (any Standard Schema works).
// Run: npm run build && npx tsx examples/standard-schema.ts

import { toChatTools } from '@switchyard/openai';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { z } from 'zod';

const searchOrders = defineTool({
  name: 'search_orders',
  description: 'Search the orders of a customer.',
  inputSchema: z.object({
    customer: z.email(),
    status: z.enum(['open', 'shipped', 'returned']).optional(),
    limit: z.number().int().min(1).max(50).default(10),
    since: z
      .string()
      .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a date such as 2026-11-01')
      .transform((text) => new Date(text))
      .optional(),
  }),
  safety: { readOnly: true },
  // The handler's arguments are zod's output type: `limit` is a number (its default applied),
  // `since` a Date (transformed). A handler reading a field the schema lacks does not compile.
  handler: ({ customer, status, limit, since }) =>
    `${limit} ${status ?? 'any'} orders of ${customer}${since ? ` since ${since.toISOString().slice(0, 10)}` : ''}`,
});

const registry = createToolRegistry([searchOrders]);

// The model sees zod's own JSON Schema conversion.
console.log(JSON.stringify(toChatTools(registry.modelDefinitions())[0]?.function.parameters));

const dispatcher = createDispatcher({ registry });
const ok = await dispatcher.dispatch({
  id: 'call_1',
  name: 'search_orders',
  arguments: '{"customer":"ada@example.com","since":"2026-11-01"}',
});
console.log(ok.status, ok.result); // ok '10 any orders of ada@example.com since 2026-11-01'

const bad = await dispatcher.dispatch({
  id: 'call_2',
  name: 'search_orders',
  arguments: '{"customer":"ada","since":"last week"}',
});
console.log(bad.status); // schema_violation: the handler never ran
console.log(bad.observation);
// Invalid arguments for tool "search_orders":
// - customer: Invalid email address
// - since: must be a date such as 2026-11-01
// Call search_orders again with arguments that satisfy its input schema.
