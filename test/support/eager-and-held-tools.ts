import { defineTool } from '../../src/index.js';

/** A read-only, free tool: the default eager policy starts it while the model still streams. */
export const lookupTool = defineTool({
  name: 'lookup',
  description: 'read-only: starts while the model streams',
  inputSchema: { type: 'object' },
  safety: { readOnly: true },
  handler: () => 'found',
});

/** A tool that spends ($0.50 a call): held until the model's response has ended. */
export const payTool = defineTool({
  name: 'pay',
  description: 'spends: held until the response ends',
  inputSchema: { type: 'object' },
  safety: { spend: true },
  handler: (args, runtime) => {
    runtime.reportCost({ usd: 0.5 });
    return `paid ${JSON.stringify(args)}`;
  },
});
