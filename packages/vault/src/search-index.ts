import { ScoreBoard } from './score-board.js';
import type { SearchableTool } from './search-types.js';
import { segmentCompound } from './segment-compound.js';
import { splitWords, termOf, tokenize } from './tokenize.js';
import { type ToolDocument, toolDocument } from './tool-document.js';

/** How much a term in each field counts against the same term in the description. */
export interface FieldWeights {
  readonly name: number;
  readonly description: number;
  readonly parameters: number;
}

/** Options of `SearchIndex`. Defaults: k1 1.2, b 0.75, `DEFAULT_FIELD_WEIGHTS`. */
export interface SearchIndexOptions {
  readonly k1?: number;
  readonly b?: number;
  readonly weights?: FieldWeights;
}

/** Defaults: name words weigh most; parameter text (long, repetitive) least. */
export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { name: 2, description: 1, parameters: 0.3 };

/** Field bits of a posting. */
export const IN_NAME = 1;
export const IN_DESCRIPTION = 2;
export const IN_PARAMETERS = 4;

/** One term's postings: the documents holding it, its BM25F weight in each, and the fields. */
export interface Postings {
  readonly docs: number[];
  readonly weights: number[];
  readonly fields: number[];
  idf: number;
}

/** Compounds shorter than this are taken as words. */
const MIN_COMPOUND = 7;

/**
 * The inverted index every built-in strategy reads. Term weights are BM25F: a term's frequency in
 * each field is weighted and summed, normalised by the tool's weighted length, then saturated
 * once, so a term repeated across fields does not count as several independent matches. The length
 * is the whole tool's, not each field's: a function with long parameter docs then does not outrank
 * a tool described in one line merely by having more words to match.
 */
export class SearchIndex {
  readonly documents: readonly ToolDocument[];
  readonly postings = new Map<string, Postings>();
  /** Scratch scores for one query at a time. */
  readonly board: ScoreBoard;
  /** Per document, the summed IDF of its distinct name terms. */
  readonly nameMass: Float64Array;
  /**
   * Lower-cased identifier-like names (`run_command`, `sendEmail`: two words or more) → document.
   * One-word names (`search`, `now`) are ordinary words in a query, not a reference to the tool.
   */
  readonly byLowerName = new Map<string, number>();
  /** Tool name → its namespace (`''` for none). */
  readonly namespaceOf: (name: string) => string;

  constructor(tools: readonly SearchableTool[], options: SearchIndexOptions = {}) {
    const k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    const weights = options.weights ?? DEFAULT_FIELD_WEIGHTS;
    this.documents = tools.map(toolDocument);
    this.board = new ScoreBoard(this.documents);
    const namespaces = new Map(this.documents.map((doc) => [doc.name, doc.namespace]));
    this.namespaceOf = (name) => namespaces.get(name) ?? '';
    this.documents.forEach((doc, i) => {
      if (splitWords(doc.name).length > 1) this.byLowerName.set(doc.name.toLowerCase(), i);
    });
    const descriptionWords = this.documents.map((doc) => splitWords(doc.description));
    const parameterWords = this.documents.map((doc) => splitWords(doc.parameterText));
    const dictionary = new Set<string>();
    for (const words of [...descriptionWords, ...parameterWords]) {
      for (const word of words) if (word.length >= 3) dictionary.add(word);
    }
    const fields = this.documents.map((doc, i) => [
      nameTerms(doc.nameText, dictionary),
      termsOf(descriptionWords[i] as string[]),
      termsOf(parameterWords[i] as string[]),
    ]);
    const fieldWeights = [weights.name, weights.description, weights.parameters];
    const weightedLength = (docFields: string[][]) =>
      docFields.reduce((sum, terms, f) => sum + (fieldWeights[f] as number) * terms.length, 0);
    const averageLength =
      fields.reduce((sum, doc) => sum + weightedLength(doc), 0) / (fields.length || 1) || 1;
    const tfs = new Map<string, number>();
    const bits = new Map<string, number>();
    fields.forEach((docFields, doc) => {
      tfs.clear();
      bits.clear();
      const docNorm = 1 - b + (b * weightedLength(docFields)) / averageLength;
      docFields.forEach((terms, f) => {
        const add = (fieldWeights[f] as number) / docNorm;
        for (const term of terms) {
          tfs.set(term, (tfs.get(term) ?? 0) + add);
          bits.set(term, (bits.get(term) ?? 0) | (1 << f));
        }
      });
      for (const [term, tf] of tfs) {
        let list = this.postings.get(term);
        if (list === undefined) {
          list = { docs: [], weights: [], fields: [], idf: 0 };
          this.postings.set(term, list);
        }
        list.docs.push(doc);
        list.weights.push(tf / (k1 + tf));
        list.fields.push(bits.get(term) as number);
      }
    });
    const n = this.documents.length;
    for (const list of this.postings.values()) {
      const df = list.docs.length;
      list.idf = Math.log((n - df + 0.5) / (df + 0.5) + 1);
    }
    this.nameMass = new Float64Array(n);
    for (const list of this.postings.values()) {
      list.docs.forEach((doc, i) => {
        if (((list.fields[i] as number) & IN_NAME) !== 0)
          this.nameMass[doc] = (this.nameMass[doc] as number) + list.idf;
      });
    }
  }

  /** The postings of a query's distinct terms that occur in the index. */
  queryPostings(query: string): Postings[] {
    const found: Postings[] = [];
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (list !== undefined) found.push(list);
    }
    return found;
  }
}

function termsOf(words: readonly string[]): string[] {
  const terms: string[] = [];
  for (const word of words) {
    const term = termOf(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** The terms of a tool's name, run-together words also split into the corpus's words. */
function nameTerms(nameText: string, dictionary: ReadonlySet<string>): string[] {
  const terms: string[] = [];
  for (const word of splitWords(nameText)) {
    const parts =
      word.length >= MIN_COMPOUND && !dictionary.has(word) ? segmentCompound(word, dictionary) : [];
    for (const part of parts.length > 0 ? parts : [word]) {
      const term = termOf(part);
      if (term !== undefined) terms.push(term);
    }
  }
  return terms;
}
