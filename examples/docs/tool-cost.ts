// docs/tools.md: a paid tool reports what each call spent, and the result carries it.
import type { Dispatcher } from 'switchyard';

declare const dispatcher: Dispatcher;
declare function searchApi(query: string): Promise<{ hits: string[]; pages: number }>;

// #region report-cost
import { defineTool } from 'switchyard';

const webSearch = defineTool({
  name: 'web_search',
  description: 'Search the web.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
  } as const,
  safety: { readOnly: true, spend: true },
  handler: async ({ query }, runtime) => {
    const { hits, pages } = await searchApi(query);
    runtime.reportCost({ usd: 0.005 * pages, units: pages, unit: 'page' });
    return hits;
  },
});

const result = await dispatcher.dispatch({
  id: 'call_1',
  name: 'web_search',
  arguments: { query: 'switchyard' },
});
console.log(result.usage); // { toolCostUsd: 0.01, units: 2, unit: 'page' }

// #endregion report-cost

export { webSearch };
