import { IN_DESCRIPTION, IN_NAME, IN_PARAMETERS, type SearchIndex } from './search-index.js';
import type { ToolSearchHit } from './search-types.js';

/** Documents whose exact identifier-like name (any case) appears in the query as a word. */
export function namedInQuery(index: SearchIndex, query: string): Set<number> {
  const named = new Set<number>();
  for (const word of query.slice(0, 4096).match(IDENTIFIER) ?? []) {
    const doc = index.byLowerName.get(word.toLowerCase());
    if (doc !== undefined) named.add(doc);
  }
  return named;
}

/** Weights of the field matches. */
const NAME = 0.5;
const DESCRIPTION = 1;
const PARAMETERS = 0.2;
/** A tool named verbatim in the query (`run_command`) outranks every prose match. */
const EXACT_NAME = 10;
const IDENTIFIER = /[A-Za-z0-9][A-Za-z0-9_.:-]*/g;

/**
 * Field-weighted matching: how much of the tool's name the query covers, and how much of the query
 * its description and parameter text cover, each weighted by IDF; a tool whose exact name appears
 * in the query comes first. Term frequency and length do not count, so short exact names are not
 * drowned by long descriptions.
 */
export function fieldMatchSearch(
  index: SearchIndex,
  query: string,
  limit: number,
  namespace?: string,
): ToolSearchHit[] {
  const postings = index.queryPostings(query);
  let queryMass = 0;
  for (const list of postings) queryMass += list.idf;
  const board = index.board;
  for (const list of postings) {
    const share = list.idf / (queryMass || 1);
    for (let i = 0; i < list.docs.length; i += 1) {
      const doc = list.docs[i] as number;
      const fields = list.fields[i] as number;
      let add = 0;
      if ((fields & IN_NAME) !== 0)
        add += (NAME * list.idf) / ((index.nameMass[doc] as number) || 1);
      if ((fields & IN_DESCRIPTION) !== 0) add += DESCRIPTION * share;
      if ((fields & IN_PARAMETERS) !== 0) add += PARAMETERS * share;
      board.add(doc, add);
    }
  }
  for (const doc of namedInQuery(index, query)) board.add(doc, EXACT_NAME);
  return board.take(limit, namespace);
}
