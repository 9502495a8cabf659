import { RE2JS } from 're2js';
import { topHits } from './rank-hits.js';
import { mayMatch, requiredLiterals } from './required-literals.js';
import type { SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';
import type { ToolDocument } from './tool-document.js';

/** Longest pattern accepted (Anthropic's regex tool search takes 200 characters). */
export const MAX_REGEX_LENGTH = 200;
/** Points for a match in the name, the description, the parameter names. */
const NAME_POINTS = 4;
const DESCRIPTION_POINTS = 2;
const PARAMETER_POINTS = 1;

/** What a regex search found, or why it found nothing. */
export interface RegexSearchOutcome {
  readonly hits: ToolSearchHit[];
  readonly diagnostic?: string;
}

/**
 * Case-insensitive regular-expression search with RE2 semantics (linear time: no backreferences,
 * no lookaround, via RE2JS) over each tool's name, description and parameter names: 4 points for
 * a match in the name, 2 in the description, 1 in a parameter name. A pattern that is too long or
 * does not compile finds nothing and says why. Literals the pattern requires pick the candidates
 * first, so the regex engine only runs on tools that may match.
 */
export function regexSearch(
  index: SearchIndex,
  pattern: string,
  limit: number,
  namespace?: string,
): RegexSearchOutcome {
  if (pattern.trim() === '') return { hits: [] };
  if (pattern.length > MAX_REGEX_LENGTH) {
    return { hits: [], diagnostic: `regex pattern longer than ${MAX_REGEX_LENGTH} characters` };
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    return { hits: [], diagnostic: `regex compile error: ${(error as Error).message}` };
  }
  const required = requiredLiterals(pattern);
  const hits: ToolSearchHit[] = [];
  for (const doc of index.documents) {
    if (namespace !== undefined && doc.namespace !== namespace) continue;
    if (required !== undefined && !mayMatch(lowerText(doc), required)) continue;
    const score =
      (compiled.test(doc.name) ? NAME_POINTS : 0) +
      (doc.description !== '' && compiled.test(doc.description) ? DESCRIPTION_POINTS : 0) +
      (doc.parameterNames !== '' && compiled.test(doc.parameterNames) ? PARAMETER_POINTS : 0);
    if (score > 0) hits.push({ name: doc.name, score });
  }
  return { hits: topHits(hits, limit) };
}

const LOWER_TEXT = new WeakMap<ToolDocument, string>();

/** Name, description and parameter names, lower-cased: the prefilter's haystack, made on first use. */
function lowerText(doc: ToolDocument): string {
  let text = LOWER_TEXT.get(doc);
  if (text === undefined) {
    text = `${doc.name}\n${doc.description}\n${doc.parameterNames}`.toLowerCase();
    LOWER_TEXT.set(doc, text);
  }
  return text;
}
