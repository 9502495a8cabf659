// docs/standard-schema.md and docs/tools.md: a tool whose schema is a Standard Schema (zod).
// #region zod-tool
import { defineTool } from 'switchyard';
import { z } from 'zod';

const searchOrders = defineTool({
  name: 'search_orders',
  description: 'Search the orders of a customer.',
  inputSchema: z.object({
    customer: z.email(),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  safety: { readOnly: true },
  handler: ({ customer, limit }) => `${limit} orders of ${customer}`, // limit: number
});

// #endregion zod-tool

export { searchOrders };
