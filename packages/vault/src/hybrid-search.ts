import { bm25Search } from './bm25-search.js';
import { fieldMatchSearch, namedInQuery } from './field-match-search.js';
import { fuseRankings, topHits } from './rank-hits.js';
import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';
import { spreadNamespaces } from './spread-namespaces.js';
import type { ToolDocument } from './tool-document.js';

/** Depth of each ranking fed to the fusion. */
const FUSION_DEPTH = 50;
/** The field-match ranking counts a quarter of BM25: it ignores term frequency and length, and mostly breaks ties. */
const FIELD_MATCH_WEIGHT = 0.25;

/**
 * Reciprocal-rank fusion of BM25F and the field-weighted match: prose queries rank as with BM25,
 * and a tool the query names verbatim (`run_command`) comes first, however much prose matches
 * other tools.
 */
export function hybridSearch(
  index: SearchIndex,
  query: string,
  limit: number,
  namespace?: string,
  decay = 1,
): ToolSearchHit[] {
  const fused = fuseRankings(
    [
      { hits: bm25Search(index, query, FUSION_DEPTH, namespace), weight: 1 },
      { hits: fieldMatchSearch(index, query, FUSION_DEPTH, namespace), weight: FIELD_MATCH_WEIGHT },
    ],
    FUSION_DEPTH,
  );
  const named = new Set<string>();
  for (const doc of namedInQuery(index, query))
    named.add((index.documents[doc] as ToolDocument).name);
  // Fused scores stay below 1.5 / RRF_K, so + 1 puts every tool named verbatim first.
  const ranked = topHits(
    fused.map((hit) => (named.has(hit.name) ? { name: hit.name, score: hit.score + 1 } : hit)),
    FUSION_DEPTH,
  );
  return spreadNamespaces(ranked, index.namespaceOf, namespace === undefined ? decay : 1, limit);
}
