// What the cases ported from LangGraph's `prebuilt.test.ts` share: its tools and its fake
// tool-calling model, and `toolNodeOf`, which stands in for `new ToolNode(tools)`.
//
// Ported from langchain-ai/langgraphjs, libs/langgraph-core/src/tests/prebuilt.test.ts and
// libs/langgraph-core/src/tests/utils.models.ts (commit f8bdf16d4), under the MIT License:
//
//   Copyright (c) 2024 LangChain
//
//   Permission is hereby granted, free of charge, to any person obtaining a copy of this software
//   and associated documentation files (the "Software"), to deal in the Software without
//   restriction, including without limitation the rights to use, copy, modify, merge, publish,
//   distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
//   Software is furnished to do so, subject to the following conditions: The above copyright
//   notice and this permission notice shall be included in all copies or substantial portions of
//   the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
//   PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
//   LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
//   OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
//   DEALINGS IN THE SOFTWARE.
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  type AIMessageFields,
  type BaseMessage,
  type BaseMessageFields,
  HumanMessage,
  ToolMessage,
  type ToolMessageFields,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { StructuredTool } from '@langchain/core/tools';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { expect } from 'vitest';
import { z } from 'zod/v3';
import {
  type FromLangChainToolsOptions,
  fromLangChainTools,
  type LangChainTool,
  type SwitchyardToolNodeOptions,
  switchyardToolNode,
} from '../../src/index.js';

const searchSchema = z.object({ query: z.string().describe('The query to search for.') });

export class SearchAPI extends StructuredTool {
  name = 'search_api';
  description = 'A simple API that returns the input string.';
  schema = searchSchema;

  async _call(input: z.infer<typeof searchSchema>) {
    if (input?.query === 'error') throw new Error('Error');
    return `result for ${input?.query}`;
  }
}

export class SearchAPIWithArtifact extends StructuredTool {
  name = 'search_api';
  description = 'A simple API that returns the input string.';
  schema = searchSchema;
  override responseFormat = 'content_and_artifact';

  async _call(_: z.infer<typeof searchSchema>) {
    return ['some response format', Buffer.from('123')];
  }
}

/** Messages that compare equal (`toEqual`) to a message of the same class with any id. */
export class AnyIdHumanMessage extends HumanMessage {
  override get lc_id() {
    return ['langchain_core', 'messages', 'HumanMessage'];
  }

  constructor(fields: BaseMessageFields | string) {
    const anyId = { id: expect.any(String) as unknown as string };
    super(typeof fields === 'string' ? { content: fields, ...anyId } : { ...fields, ...anyId });
  }
}

export class AnyIdAIMessage extends AIMessage {
  override get lc_id() {
    return ['langchain_core', 'messages', 'AIMessage'];
  }

  constructor(fields: AIMessageFields | string) {
    const anyId = { id: expect.any(String) as unknown as string };
    super(typeof fields === 'string' ? { content: fields, ...anyId } : { ...fields, ...anyId });
  }
}

export class AnyIdToolMessage extends ToolMessage {
  override get lc_id() {
    return ['langchain_core', 'messages', 'ToolMessage'];
  }

  constructor(fields: ToolMessageFields) {
    super({
      id: expect.any(String) as unknown as string,
      ...fields,
      ...(fields.metadata == null
        ? {}
        : { metadata: expect.objectContaining(fields.metadata) as Record<string, unknown> }),
    });
  }
}

/** A chat model that answers with `responses` in turn (LangGraph's, without its sleep). */
export class FakeToolCallingChatModel extends BaseChatModel {
  readonly responses: BaseMessage[];
  index = 0;

  constructor(fields: { responses: BaseMessage[] }) {
    super({});
    this.responses = fields.responses;
  }

  _llmType() {
    return 'fake';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const responses = this.responses.length > 0 ? this.responses : messages;
    const message = responses[this.index % responses.length]!;
    this.index += 1;
    return { generations: [{ text: '', message }] };
  }

  override bindTools(tools: BindToolsInput[]) {
    return this.withConfig({ tools } as BaseChatModelCallOptions);
  }
}

/**
 * `new ToolNode(tools)` as Switchyard runs it: the tools in a registry (`fromLangChainTools`), a
 * dispatcher over it, and the node.
 */
export function toolNodeOf(
  tools: readonly LangChainTool[],
  options: Omit<SwitchyardToolNodeOptions, 'dispatcher'> & FromLangChainToolsOptions = {},
) {
  const { safety, timeoutMs, ...nodeOptions } = options;
  const registry = createToolRegistry(fromLangChainTools(tools, { safety, timeoutMs }));
  return switchyardToolNode({ dispatcher: createDispatcher({ registry }), ...nodeOptions });
}
