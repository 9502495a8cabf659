import type { ToolSearchHit } from './search-types.js';

/** Sorts hits by score descending, then name ascending, and keeps `limit`. */
export function topHits(hits: ToolSearchHit[], limit: number): ToolSearchHit[] {
  hits.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return hits.slice(0, limit);
}

/** Reciprocal-rank fusion constant: the usual 60 lets agreement between rankers outweigh one top rank. */
export const RRF_K = 60;

/** Fuses rankings (best first): each name scores Σ weight / (RRF_K + rank). */
export function fuseRankings(
  rankings: readonly { readonly hits: readonly ToolSearchHit[]; readonly weight: number }[],
  limit: number,
): ToolSearchHit[] {
  const fused = new Map<string, number>();
  for (const { hits, weight } of rankings) {
    hits.forEach((hit, rank) => {
      fused.set(hit.name, (fused.get(hit.name) ?? 0) + weight / (RRF_K + rank + 1));
    });
  }
  return topHits(
    [...fused].map(([name, score]) => ({ name, score })),
    limit,
  );
}
