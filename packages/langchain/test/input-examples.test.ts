import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_DOCS_DESCRIBED,
  toolsWithExamples,
} from '../../../test/support/tools-with-examples.js';
import { switchyardToolNode } from '../src/index.js';

describe('switchyardToolNode and input examples', () => {
  it("writes a tool's inputExamples into the description a bound model is sent", () => {
    const node = switchyardToolNode({ dispatcher: toolsWithExamples() });
    // What LangChain's chat models do with `bindTools(node.tools)` before a request.
    const bound = node.tools.map((each) => convertToOpenAITool(each as never).function);
    expect(bound).toMatchObject([
      { name: 'search_docs', description: SEARCH_DOCS_DESCRIBED },
      { name: 'plain', description: 'No examples.' },
    ]);
  });
});
