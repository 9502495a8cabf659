import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords.js';

// Case and digit boundaries inside identifiers: `getHTTPResponse2` → get HTTP Response 2.
const CAMEL = /([a-z])([A-Z])|([A-Z])([A-Z][a-z])|([a-zA-Z])(\d)|(\d)([a-zA-Z])/g;
const WORD = /[a-z0-9]+/g;
/** Longest text tokenized; longer input is cut (queries and descriptions are prose, not files). */
export const MAX_TEXT_LENGTH = 8192;

/** Lower-case words of `text`, identifiers split at `_`, `-`, `.` and camelCase boundaries. */
export function splitWords(text: string): string[] {
  const spaced = text.slice(0, MAX_TEXT_LENGTH).replace(CAMEL, '$1$3$5$7 $2$4$6$8');
  return spaced.toLowerCase().match(WORD) ?? [];
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
