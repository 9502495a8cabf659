import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/anthropic, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = [
  'AnthropicDeltaTranslator',
  'DEFAULT_ANTHROPIC_MAX_TOKENS',
  'createAnthropicBinder',
  'createAnthropicModel',
  'isSafeAnthropicStop',
  'proposedCallsFromMessage',
  'toAnthropicMessages',
  'toAnthropicModelError',
  'toAnthropicRequest',
  'toAnthropicToolResults',
  'toAnthropicTools',
];

describe('@switchyard/anthropic', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });
});
