// packages/vault/README.md: searching a large tool set, and deferring tools behind a search.
import type { ModelClient, ToolRegistry } from 'switchyard';

declare const registry: ToolRegistry;
declare const tools: ToolRegistry;
declare const task: string;
declare const model: ModelClient;
declare const vectors: Map<string, number[]>;
declare function embed(text: string): Promise<number[]>;
declare function cosine(a: number[], b: number[] | undefined): number;

// #region quick
import { createToolSearch, toolSearch } from '@switchyard/vault';
import { agentLoop } from 'switchyard';

const search = createToolSearch({ tools: registry.list(), variant: 'hybrid' });
await search.search('open a file', { limit: 5 }); // [{ name: 'open_file', score: … }, …] best first

const run = await agentLoop({
  task,
  model,
  tools,
  toolSearch: toolSearch({ variant: 'bm25', budgetTokens: 8000 }),
});
// #endregion quick

// #region search
const bm25 = createToolSearch({ tools: registry.list(), variant: 'bm25' });
await bm25.search('open a file', { limit: 5 }); // [{ name: 'open_file', score: 7.1 }, …]
await bm25.explain('zebra'); // { hits: [], diagnostic: 'no deferred tools matched the query; try broader terms' }
// #endregion search

// #region custom
const semantic = createToolSearch({
  tools: registry.list(),
  variant: {
    name: 'embeddings',
    handler: async (query, candidates) => {
      const q = await embed(query); // your model
      return candidates
        .map((tool) => ({ name: tool.name, score: cosine(q, vectors.get(tool.name)) }))
        .sort((a, b) => b.score - a.score);
    },
  },
});
// #endregion custom

// #region agent
const deferred = await agentLoop({
  task,
  model,
  tools, // some tools have deferLoading: true
  toolSearch: toolSearch({ variant: 'hybrid', budgetTokens: 8000, alwaysLoaded: ['read_file'] }),
});

// #endregion agent

export { deferred, run, semantic };
