import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';
import { spreadNamespaces } from './spread-namespaces.js';

/**
 * BM25F over name, description and parameter text: Σ idf × saturated field-weighted term frequency
 * over the query's distinct terms. Only tools with a score above 0, best first. Searching every
 * namespace with `decay` below 1 spreads the hits over namespaces (`spreadNamespaces`).
 */
export function bm25Search(
  index: SearchIndex,
  query: string,
  limit: number,
  namespace?: string,
  decay = 1,
): ToolSearchHit[] {
  const board = index.board;
  for (const list of index.queryPostings(query)) {
    for (let i = 0; i < list.docs.length; i += 1) {
      board.add(list.docs[i] as number, list.idf * (list.weights[i] as number));
    }
  }
  if (namespace !== undefined || decay >= 1) return board.take(limit, namespace);
  return spreadNamespaces(board.takePerNamespace(limit), index.namespaceOf, decay, limit);
}
