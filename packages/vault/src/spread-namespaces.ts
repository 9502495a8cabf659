import type { ToolSearchHit } from './search-types.js';

/**
 * Discounts each hit by `decay` for every better-scoring hit of the same namespace, then keeps the
 * best `limit`: a namespace with many near-identical tools (five weather functions of one server)
 * no longer fills every slot when another namespace has a match nearly as good. `hits` must be
 * best first; `decay` 1 leaves the ranking as it is.
 */
export function spreadNamespaces(
  hits: readonly ToolSearchHit[],
  namespaceOf: (name: string) => string,
  decay: number,
  limit: number,
): ToolSearchHit[] {
  if (decay >= 1) return hits.slice(0, limit);
  const seen = new Map<string, number>();
  const spread = hits.map((hit) => {
    const namespace = namespaceOf(hit.name);
    const before = seen.get(namespace) ?? 0;
    seen.set(namespace, before + 1);
    return { name: hit.name, score: hit.score * decay ** before };
  });
  spread.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return spread.slice(0, limit);
}
