// The experimental rankers of tool-search-experiments.ts, kept apart from its protocol and audit.
import type { ToolSearchHit } from '@switchyard/vault';
import { SearchIndex } from '../../src/search-index.js';
import { STOPWORDS } from '../../src/stopwords.js';
import { splitWords, tokenize } from '../../src/tokenize.js';
import { toolDocument } from '../../src/tool-document.js';
import type { VaultTool } from './tool-search-data.js';

/** Unspread hits, best first, at least the best 60 of each namespace. */
export type Ranker = (query: string) => ToolSearchHit[];

function grams(text: string, n: number): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    if (STOPWORDS.has(word) || word.length < 3) continue;
    const padded = ` ${word} `;
    for (let i = 0; i + n <= padded.length; i += 1) out.push(padded.slice(i, i + n));
  }
  return out;
}

const sentencesOf = (query: string) =>
  query.split(/(?<=[.?!;])\s+/).filter((part) => part.trim().split(/\s+/).length > 2);

/** The ranking ideas over one shared vault index of `tools`, with plain bm25 as `plain`. */
export function experimentRankers(tools: readonly VaultTool[]) {
  const index = new SearchIndex(tools);
  const DEPTH = 60;
  const byScore = (x: ToolSearchHit, y: ToolSearchHit) =>
    y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);

  /** The shipped bm25 before the spread, with each query term weighted by `weightOf`. */
  function bm25(
    weightOf: (term: string, count: number, idf: number) => number = (_t, _c, idf) => idf,
  ): Ranker {
    return (query) => {
      const counts = new Map<string, number>();
      for (const term of tokenize(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
      return weighted(
        new Map(
          [...counts].map(([term, count]) => {
            const list = index.postings.get(term);
            return [term, list === undefined ? 0 : weightOf(term, count, list.idf)];
          }),
        ),
      );
    };
  }

  /** Σ weight × saturated term weight over the given terms (a weight already holds the IDF). */
  function weighted(terms: ReadonlyMap<string, number>): ToolSearchHit[] {
    for (const [term, weight] of terms) {
      const list = index.postings.get(term);
      if (list === undefined || weight === 0) continue;
      for (let i = 0; i < list.docs.length; i += 1)
        index.board.add(list.docs[i] as number, weight * (list.weights[i] as number));
    }
    return index.board.takePerNamespace(DEPTH);
  }

  const plain = bm25();

  function fuse(parts: readonly { ranker: Ranker; weight: number }[]): Ranker {
    return (query) => {
      const fused = new Map<string, number>();
      for (const { ranker, weight } of parts) {
        ranker(query)
          .slice(0, DEPTH)
          .forEach((hit, rank) => {
            fused.set(hit.name, (fused.get(hit.name) ?? 0) + weight / (60 + rank + 1));
          });
      }
      return [...fused].map(([name, score]) => ({ name, score })).sort(byScore);
    };
  }

  /** Query expansion from term co-occurrence in the tools' own text (no query, no label). */
  function cooccurrence(expansions: number, beta: number): Ranker {
    const termsOf: string[][] = index.documents.map(() => []);
    for (const [term, list] of index.postings)
      for (const doc of list.docs) termsOf[doc]?.push(term);
    const n = index.documents.length;
    const related = new Map<string, [string, number][]>();
    const relatedTo = (term: string) => {
      let found = related.get(term);
      if (found !== undefined) return found;
      const docs = index.postings.get(term)?.docs ?? [];
      const together = new Map<string, number>();
      for (const doc of docs)
        for (const other of termsOf[doc] ?? []) together.set(other, (together.get(other) ?? 0) + 1);
      found = [];
      for (const [other, count] of together) {
        if (other === term || count < 2) continue;
        const df = index.postings.get(other)?.docs.length ?? n;
        found.push([other, (count / docs.length) * Math.log(n / df)]); // P(u | t) × idf(u)
      }
      found = found.sort((x, y) => y[1] - x[1]).slice(0, 10);
      related.set(term, found);
      return found;
    };
    return (query) => {
      const own = new Set(tokenize(query));
      const weights = new Map<string, number>();
      for (const term of own) weights.set(term, index.postings.get(term)?.idf ?? 0);
      const added = new Map<string, number>();
      for (const term of own)
        for (const [other, strength] of relatedTo(term))
          if (!own.has(other)) added.set(other, (added.get(other) ?? 0) + strength);
      const best = [...added].sort((x, y) => y[1] - x[1]).slice(0, expansions);
      const top = best[0]?.[1] ?? 1;
      for (const [term, strength] of best)
        weights.set(term, (beta * strength * (index.postings.get(term)?.idf ?? 0)) / top);
      return weighted(weights);
    };
  }

  /** BM25 over character n-grams of the words (name 2, description 1, parameters 0.3). */
  function charGrams(n: number): Ranker {
    const docs = tools.map(toolDocument);
    const lengths: number[] = [];
    const tfs = docs.map((doc) => {
      const tf = new Map<string, number>();
      let length = 0;
      for (const [text, weight] of [
        [doc.nameText, 2],
        [doc.description, 1],
        [doc.parameterText, 0.3],
      ] as const) {
        for (const gram of grams(text, n)) {
          tf.set(gram, (tf.get(gram) ?? 0) + weight);
          length += weight;
        }
      }
      lengths.push(length);
      return tf;
    });
    const average = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
    const postings = new Map<string, { docs: number[]; weights: number[]; idf: number }>();
    tfs.forEach((tf, doc) => {
      const norm = 0.25 + (0.75 * (lengths[doc] as number)) / average;
      for (const [gram, count] of tf) {
        let list = postings.get(gram);
        if (list === undefined) {
          list = { docs: [], weights: [], idf: 0 };
          postings.set(gram, list);
        }
        list.docs.push(doc);
        list.weights.push(count / norm / (1.2 + count / norm));
      }
    });
    for (const list of postings.values())
      list.idf = Math.log((docs.length - list.docs.length + 0.5) / (list.docs.length + 0.5) + 1);
    const scores = new Float64Array(docs.length);
    return (query) => {
      scores.fill(0);
      for (const gram of new Set(grams(query, n))) {
        const list = postings.get(gram);
        if (list === undefined) continue;
        list.docs.forEach((doc, i) => {
          scores[doc] = (scores[doc] as number) + list.idf * (list.weights[i] as number);
        });
      }
      const hits: ToolSearchHit[] = [];
      scores.forEach((score, doc) => {
        if (score > 0) hits.push({ name: (docs[doc] as { name: string }).name, score });
      });
      return hits.sort(byScore).slice(0, 4 * DEPTH);
    };
  }

  /** The whole query fused (RRF) with each of its sentences, for queries that ask several things. */
  function sentenceFusion(weight: number): Ranker {
    return (query) => {
      const parts = sentencesOf(query);
      if (parts.length < 2) return plain(query);
      return fuse([
        { ranker: plain, weight: 1 },
        ...parts.map((part) => ({ ranker: () => plain(part), weight: weight / parts.length })),
      ])(query);
    };
  }

  /** A bonus for each pair of adjacent query terms that is adjacent in a tool's name or description. */
  function proximity(beta: number): Ranker {
    const pairs = new Map<string, number[]>();
    index.documents.forEach((doc, i) => {
      for (const text of [doc.nameText, doc.description]) {
        const terms = tokenize(text);
        for (let j = 0; j + 1 < terms.length; j += 1) {
          const key = `${terms[j]} ${terms[j + 1]}`;
          const docs = pairs.get(key) ?? [];
          if (docs.at(-1) !== i) docs.push(i);
          pairs.set(key, docs);
        }
      }
    });
    const n = index.documents.length;
    return (query) => {
      const terms = tokenize(query);
      for (const term of new Set(terms)) {
        const list = index.postings.get(term);
        if (list === undefined) continue;
        for (let i = 0; i < list.docs.length; i += 1)
          index.board.add(list.docs[i] as number, list.idf * (list.weights[i] as number));
      }
      const seen = new Set<string>();
      for (let j = 0; j + 1 < terms.length; j += 1) {
        const key = `${terms[j]} ${terms[j + 1]}`;
        const docs = pairs.get(key);
        if (seen.has(key) || docs === undefined) continue;
        seen.add(key);
        const idf = Math.log((n - docs.length + 0.5) / (docs.length + 0.5) + 1);
        for (const doc of docs) index.board.add(doc, beta * idf);
      }
      return index.board.takePerNamespace(DEPTH);
    };
  }
  return { index, plain, bm25, fuse, cooccurrence, charGrams, sentenceFusion, proximity };
}
