import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/langchain, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = [
  'fromLangChainTools',
  'markIncompleteToolCalls',
  'proposedCallsFromAIMessage',
  'switchyardToolNode',
  'toToolMessage',
];

describe('@switchyard/langchain', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });
});
