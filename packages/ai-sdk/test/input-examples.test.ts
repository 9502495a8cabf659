import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_DOCS_EXAMPLES,
  toolsWithExamples,
} from '../../../test/support/tools-with-examples.js';
import { aiSdkTools } from '../src/index.js';
import { textResponse } from './ai-sdk-support.js';

describe('aiSdkTools and input examples', () => {
  it("sends a tool's inputExamples in the AI SDK's own field, as the model is sent them", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [textResponse('done')] });
    await generateText({
      model,
      prompt: 'find it',
      ...aiSdkTools({ dispatcher: toolsWithExamples() }),
    });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    expect(sent.find((each) => each.name === 'search_docs')).toMatchObject({
      type: 'function',
      description: 'Search the docs.',
      inputExamples: SEARCH_DOCS_EXAMPLES,
    });
    expect(sent.find((each) => each.name === 'plain')).not.toHaveProperty('inputExamples');
  });
});
