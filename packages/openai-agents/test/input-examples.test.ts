import { Agent, run } from '@openai/agents-core';
import { assistantMessage, ScriptedModel } from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_DOCS_DESCRIBED,
  toolsWithExamples,
} from '../../../test/support/tools-with-examples.js';
import { openAIAgentsTools } from '../src/index.js';

describe('openAIAgentsTools and input examples', () => {
  it("writes a tool's inputExamples into the description the Runner sends the model", async () => {
    const set = openAIAgentsTools({ dispatcher: toolsWithExamples() });
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await run(
      new Agent({ name: 'assistant', model: set.model(model), tools: set.tools }),
      'find it',
    );
    expect(model.calls[0]?.request.tools).toMatchObject([
      { type: 'function', name: 'search_docs', description: SEARCH_DOCS_DESCRIBED },
      { type: 'function', name: 'plain', description: 'No examples.' },
    ]);
  });
});
