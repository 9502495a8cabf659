/**
 * The rivals of the vault's own index in `tool-search.bench.ts`: the reference plain BM25, and two
 * well-kept libraries (MiniSearch, wink-bm25-text-search) fed the same fields and the same
 * tokenizer, so the comparison is of the engines, not of the text processing.
 */
import MiniSearch from 'minisearch';
import winkBm25 from 'wink-bm25-text-search';
// Internal modules, read from the sources: dist/ holds the bundled entry points only.
import { splitWords, tokenize } from '../../src/tokenize.js';
import { toolDocument } from '../../src/tool-document.js';
import type { VaultTool } from './tool-search-data.js';

/** A ranked-name search built over some tools. */
export type Ranker = (query: string, limit: number) => string[];

/** The data set's reference baseline: plain BM25 (k1 1.2, b 0.75) over name + description + parameter names, words split, no stemming. */
export function plainBm25(tools: readonly VaultTool[]): Ranker {
  const docs = tools.map((tool) => {
    const doc = toolDocument(tool);
    return splitWords(`${doc.nameText} ${doc.description} ${doc.parameterNames}`);
  });
  const avg = docs.reduce((sum, words) => sum + words.length, 0) / docs.length;
  const tf = docs.map((words) => {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const df = new Map<string, number>();
  for (const counts of tf) for (const word of counts.keys()) df.set(word, (df.get(word) ?? 0) + 1);
  const n = docs.length;
  return (query, limit) => {
    const words = [...new Set(splitWords(query))];
    const scored: [string, number][] = [];
    tf.forEach((counts, i) => {
      let score = 0;
      const norm = 1.2 * (0.25 + (0.75 * (docs[i] as string[]).length) / avg);
      for (const word of words) {
        const f = counts.get(word);
        if (f === undefined) continue;
        const d = df.get(word) as number;
        score += (Math.log((n - d + 0.5) / (d + 0.5) + 1) * f * 2.2) / (f + norm);
      }
      if (score > 0) scored.push([(tools[i] as VaultTool).name, score]);
    });
    scored.sort((x, y) => y[1] - x[1]);
    return scored.slice(0, limit).map(([name]) => name);
  };
}

function fields(tool: VaultTool) {
  const doc = toolDocument(tool);
  return {
    id: tool.name,
    name: doc.nameText,
    description: doc.description,
    parameters: doc.parameterText,
  };
}

/** MiniSearch (BM25+) with the vault's tokenizer and field weights. */
export function miniSearch(tools: readonly VaultTool[]): Ranker {
  const index = new MiniSearch({
    fields: ['name', 'description', 'parameters'],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => term,
    searchOptions: { boost: { name: 2, description: 1, parameters: 0.3 }, combineWith: 'OR' },
  });
  index.addAll(tools.map(fields));
  return (query, limit) =>
    index
      .search(query)
      .slice(0, limit)
      .map((hit) => String(hit.id));
}

/** wink-bm25-text-search (BM25F) with the vault's tokenizer and field weights. */
export function winkSearch(tools: readonly VaultTool[]): Ranker {
  const engine = winkBm25();
  engine.defineConfig({
    fldWeights: { name: 2, description: 1, parameters: 0.3 },
    bm25Params: { k1: 1.2, b: 0.75 },
  });
  engine.definePrepTasks([(text) => tokenize(text)]);
  for (const tool of tools) {
    const { id, ...rest } = fields(tool);
    engine.addDoc(rest, id);
  }
  engine.consolidate();
  return (query, limit) => engine.search(query, limit).map(([id]) => id);
}
