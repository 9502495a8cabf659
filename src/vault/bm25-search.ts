import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';

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
  const board = index.board;
  for (const list of index.queryPostings(query)) {
    for (let i = 0; i < list.docs.length; i += 1) {
      board.add(list.docs[i] as number, list.idf * (list.weights[i] as number));
    }
  }
  return board.take(limit, namespace);
}
