import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/openai-agents, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = ['fromOpenAIAgentsTools', 'openAIAgentsTools', 'unlistedCallOf'];

describe('@switchyard/openai-agents', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });
});
