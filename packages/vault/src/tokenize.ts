import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords.js';

/** Longest text tokenized; longer input is cut (queries and descriptions are prose, not files). */
export const MAX_TEXT_LENGTH = 8192;

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function kindOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  return code >= 48 && code <= 57 ? DIGIT : OTHER;
}

/**
 * Lower-case ASCII words of `text`, identifiers split at `_`, `-`, `.`, case and digit boundaries:
 * `getHTTPResponse2xx` → get http response 2 xx. A hand-written scan: it runs over every
 * description at index time, where a regex with lookarounds cost several times more.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const end = Math.min(text.length, MAX_TEXT_LENGTH);
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i < end; i += 1) {
    const kind = kindOf(text.charCodeAt(i));
    if (kind === OTHER) {
      if (start >= 0) words.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      (kind === UPPER && previous === LOWER) ||
      (kind === DIGIT) !== (previous === DIGIT)
    ) {
      words.push(text.slice(start, i).toLowerCase());
      start = i;
    } else if (
      kind === LOWER &&
      previous === UPPER &&
      i - 2 >= start &&
      kindOf(text.charCodeAt(i - 2)) === UPPER
    ) {
      // `HTTPResponse`: the last capital starts the next word.
      words.push(text.slice(start, i - 1).toLowerCase());
      start = i - 1;
    }
    previous = kind;
  }
  if (start >= 0) words.push(text.slice(start, end).toLowerCase());
  return words;
}

const STEMS = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

/** A word's index term: stop words dropped (`undefined`), the rest Porter-stemmed. */
export function termOf(word: string): string | undefined {
  if (STOPWORDS.has(word) || word.length > 40) return undefined;
  if (word.length <= 2) return word;
  let stem = STEMS.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (STEMS.size < MAX_CACHED_STEMS) STEMS.set(word, stem);
  }
  return stem;
}

/** Index terms of `text`, in order, with repeats: words split, stop words dropped, stemmed. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = termOf(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}
