import { bm25Search } from './bm25-search.js';
import { fieldMatchSearch } from './field-match-search.js';
import { fuseRankings } from './rank-hits.js';
import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';

/** Depth of each ranking fed to the fusion. */
const FUSION_DEPTH = 50;
/** The field-match ranking counts half as much as BM25 (it ignores term frequency and length). */
const FIELD_MATCH_WEIGHT = 0.5;

/**
 * Reciprocal-rank fusion of BM25F and the field-weighted match: prose queries rank as with BM25,
 * and a query naming a tool (`run_command`) puts that tool first.
 */
export function hybridSearch(
  index: SearchIndex,
  query: string,
  limit: number,
  namespace?: string,
): ToolSearchHit[] {
  return fuseRankings(
    [
      { hits: bm25Search(index, query, FUSION_DEPTH, namespace), weight: 1 },
      { hits: fieldMatchSearch(index, query, FUSION_DEPTH, namespace), weight: FIELD_MATCH_WEIGHT },
    ],
    limit,
  );
}
