import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/openai, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = [
  'chatChunkDeltas',
  'createOpenAIBinder',
  'createOpenAIChatModel',
  'createOpenAIResponsesModel',
  'openAIModelError',
  'proposedCallsFromChatCompletion',
  'proposedCallsFromResponse',
  'responsesEventDeltas',
  'toChatMessages',
  'toChatToolMessages',
  'toChatTools',
  'toOpenAIModelError',
  'toOpenAIStrictSchema',
  'toResponsesFunctionOutputs',
  'toResponsesInput',
  'toResponsesTools',
];

describe('@switchyard/openai', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });
});
