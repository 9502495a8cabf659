import { topHits } from './rank-hits.js';
import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';
import type { ToolDocument } from './tool-document.js';

/**
 * BM25F over name, description and parameter text: Σ idf × saturated field-weighted term frequency
 * over the query's distinct terms. Only tools with a score above 0, best first.
 */
export function bm25Search(
  index: SearchIndex,
  query: string,
  limit: number,
  namespace?: string,
): ToolSearchHit[] {
  const scores = new Map<number, number>();
  for (const list of index.queryPostings(query)) {
    for (let i = 0; i < list.docs.length; i += 1) {
      const doc = list.docs[i] as number;
      scores.set(doc, (scores.get(doc) ?? 0) + list.idf * (list.weights[i] as number));
    }
  }
  const hits: ToolSearchHit[] = [];
  for (const [doc, score] of scores) {
    const document = index.documents[doc] as ToolDocument;
    if (namespace === undefined || document.namespace === namespace)
      hits.push({ name: document.name, score });
  }
  return topHits(hits, limit);
}
