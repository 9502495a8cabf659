import type { ToolSearchHit } from './search-types.js';
import type { ToolDocument } from './tool-document.js';

/**
 * Per-document score accumulation without a map per query: a dense array reused across queries,
 * the documents touched, and a top-k selection that never sorts every candidate. Built-in
 * strategies run synchronously, so one board per index is never shared by two queries at once.
 */
export class ScoreBoard {
  private readonly scores: Float64Array;
  private readonly touched: number[] = [];

  constructor(private readonly documents: readonly ToolDocument[]) {
    this.scores = new Float64Array(documents.length);
  }

  add(doc: number, score: number): void {
    if (this.scores[doc] === 0) this.touched.push(doc);
    this.scores[doc] = (this.scores[doc] as number) + score;
  }

  /** The best `limit` documents (score descending, then name ascending), optionally of one namespace; clears the board. */
  take(limit: number, namespace?: string): ToolSearchHit[] {
    const best: ToolSearchHit[] = [];
    this.drain((document, hit) => {
      if (namespace === undefined || document.namespace === namespace) keepBest(best, hit, limit);
    });
    return best;
  }

  /**
   * The best `limit` documents of each namespace, all together best first; clears the board. What
   * `spreadNamespaces` needs: a document below its namespace's first `limit` can never rise into
   * the overall first `limit`, since each of those outranks it after the discount too.
   */
  takePerNamespace(limit: number): ToolSearchHit[] {
    const buckets = new Map<string, ToolSearchHit[]>();
    this.drain((document, hit) => {
      let best = buckets.get(document.namespace);
      if (best === undefined) {
        best = [];
        buckets.set(document.namespace, best);
      }
      keepBest(best, hit, limit);
    });
    return [...buckets.values()].flat().sort((x, y) => (before(x, y) ? -1 : 1));
  }

  private drain(visit: (document: ToolDocument, hit: ToolSearchHit) => void): void {
    for (const doc of this.touched) {
      const score = this.scores[doc] as number;
      // A zero-weighted field adds 0: such a document was touched (maybe twice) but did not match.
      if (score <= 0) continue;
      const document = this.documents[doc] as ToolDocument;
      visit(document, { name: document.name, score });
      this.scores[doc] = 0;
    }
    this.touched.length = 0;
  }
}

/** Inserts `hit` into `best` (sorted, at most `limit` long) when it belongs there. */
function keepBest(best: ToolSearchHit[], hit: ToolSearchHit, limit: number): void {
  if (limit <= 0) return;
  if (best.length === limit && !before(hit, best[limit - 1] as ToolSearchHit)) return;
  let at = best.length === limit ? limit - 1 : best.length;
  while (at > 0 && before(hit, best[at - 1] as ToolSearchHit)) {
    best[at] = best[at - 1] as ToolSearchHit;
    at -= 1;
  }
  best[at] = hit;
}

function before(x: ToolSearchHit, y: ToolSearchHit): boolean {
  return x.score > y.score || (x.score === y.score && x.name < y.name);
}
