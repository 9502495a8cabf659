// packages/queue/README.md: a tool module loaded by the dispatcher and by every worker.
// #region tools
// tools.ts — loaded by the dispatcher and by every worker
import { defineTool } from 'switchyard';

export const tools = [
  defineTool<{ url: string }, string>({
    name: 'fetch_page',
    description: 'Fetch a page',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    safety: { readOnly: true, network: true },
    timeoutMs: 30_000,
    executor: { kind: 'queue' }, // run on a queue worker; `queue: 'gpu'` names another queue
    handler: async ({ url }, runtime) => {
      runtime.emit({ message: 'fetching' }); // a tool_call_progress event on the dispatcher
      return (await fetch(url, { signal: runtime.signal })).text();
    },
  }),
];
// #endregion tools
