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
    for (const doc of this.touched) {
      const score = this.scores[doc] as number;
      this.scores[doc] = 0;
      const document = this.documents[doc] as ToolDocument;
      if (namespace !== undefined && document.namespace !== namespace) continue;
      const hit = { name: document.name, score };
      if (best.length === limit && !before(hit, best[limit - 1] as ToolSearchHit)) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && before(hit, best[at - 1] as ToolSearchHit)) {
        best[at] = best[at - 1] as ToolSearchHit;
        at -= 1;
      }
      best[at] = hit;
    }
    this.touched.length = 0;
    return best;
  }
}

function before(x: ToolSearchHit, y: ToolSearchHit): boolean {
  return x.score > y.score || (x.score === y.score && x.name < y.name);
}
