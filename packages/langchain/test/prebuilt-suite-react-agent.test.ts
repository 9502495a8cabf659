// The `createReactAgent` cases of LangGraph's `prebuilt.test.ts` that run tools, with
// `switchyardToolNode` as the agent's tool node (`tools: toolNodeOf([...])` where the original
// passes `new ToolNode([...])` or the tools themselves). Source and license: support/prebuilt-suite.ts.
// Where Switchyard differs by design, the case says so and asserts Switchyard's behaviour; the
// differences are listed in docs/embedding.md. Left out: "Should respect a passed signal" (the
// abort lands while the model sleeps, before any tool runs; the node's own abort test is in
// langchain.test.ts).
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  isAIMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { type ToolRuntime, tool } from '@langchain/core/tools';
import { Command, interrupt, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import {
  AnyIdAIMessage,
  AnyIdHumanMessage,
  AnyIdToolMessage,
  FakeToolCallingChatModel,
  SearchAPI,
  SearchAPIWithArtifact,
  toolNodeOf,
} from './support/prebuilt-suite.js';

describe.each([['v1' as const], ['v2' as const]])('createReactAgent (version %s)', (version) => {
  it('Works with tools that return content_and_artifact response format', async () => {
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: 'result1',
          tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
        }),
        new AIMessage('result2'),
      ],
    });
    const agent = createReactAgent({
      llm,
      tools: toolNodeOf([new SearchAPIWithArtifact()]),
      version,
      prompt: 'You are a helpful assistant',
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Hello Input!')] });
    expect(result.messages).toEqual([
      new AnyIdHumanMessage('Hello Input!'),
      new AnyIdAIMessage({
        name: undefined,
        content: 'result1',
        tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
      }),
      new AnyIdToolMessage({
        metadata: {},
        name: 'search_api',
        content: 'some response format',
        status: 'success',
        tool_call_id: 'tool_abcd123',
        artifact: Buffer.from('123'),
      }),
      new AnyIdAIMessage({ name: undefined, content: 'result2' }),
    ]);
  });

  it('Can accept RunnableToolLike', async () => {
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: 'result1',
          tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
        }),
        new AIMessage('result2'),
      ],
    });
    const searchApiTool = new SearchAPI();
    const runnableToolLikeTool = RunnableLambda.from<
      z.infer<typeof searchApiTool.schema>,
      ToolMessage
    >(async (input, config) => searchApiTool.invoke(input, config)).asTool({
      name: searchApiTool.name,
      description: searchApiTool.description,
      schema: searchApiTool.schema,
    });
    const agent = createReactAgent({
      llm,
      tools: toolNodeOf([runnableToolLikeTool]),
      version,
      prompt: 'You are a helpful assistant',
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Hello Input!')] });
    expect(result.messages).toEqual([
      new AnyIdHumanMessage('Hello Input!'),
      new AnyIdAIMessage({
        name: undefined,
        content: 'result1',
        tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
      }),
      new AnyIdToolMessage({
        name: 'search_api',
        status: 'success',
        content: 'result for foo',
        tool_call_id: 'tool_abcd123',
      }),
      new AnyIdAIMessage('result2'),
    ]);
  });

  it('Should work with ToolNode', async () => {
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: '',
          tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
        }),
        new AIMessage('result'),
      ],
    });
    const agent = createReactAgent({ llm, tools: toolNodeOf([new SearchAPI()]), version });
    const result = await agent.invoke({ messages: [new HumanMessage('Hello Input!')] });
    expect(result.messages).toEqual([
      new AnyIdHumanMessage('Hello Input!'),
      new AnyIdAIMessage({
        name: undefined,
        content: '',
        tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'foo' } }],
      }),
      new AnyIdToolMessage({
        artifact: undefined,
        metadata: {},
        status: 'success',
        name: 'search_api',
        content: 'result for foo',
        tool_call_id: 'tool_abcd123',
      }),
      new AnyIdAIMessage({ name: undefined, content: 'result' }),
    ]);
  });

  // Differs by design: ToolNode with `handleToolErrors: false` lets a tool's throw end the run.
  // Switchyard gives every call one result, so the model reads the failure and the run goes on.
  it('Should work with ToolNode with handleToolErrors set to false (a failure is a result)', async () => {
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: '',
          tool_calls: [{ name: 'search_api', id: 'tool_abcd123', args: { query: 'error' } }],
        }),
        new AIMessage('recovered'),
      ],
    });
    const agent = createReactAgent({ llm, tools: toolNodeOf([new SearchAPI()]), version });
    const result = await agent.invoke({ messages: [new HumanMessage('Hello Input!')] });
    expect(result.messages.at(2)).toMatchObject({ status: 'error', tool_call_id: 'tool_abcd123' });
    expect(result.messages.at(2)?.content).toContain('Error');
    expect(result.messages.at(-1)?.content).toBe('recovered');
  });

  it('should work with interrupt()', async () => {
    const toolWithInterrupt = tool(async (_) => interrupt('Please review.') as string, {
      name: 'tool_with_interrupt',
      description: 'A tool that returns an interrupt',
      schema: z.object({}),
    });
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: '',
          tool_calls: [{ name: 'tool_with_interrupt', args: {}, id: 'testid' }],
        }),
        new AIMessage('Final response'),
      ],
    });
    const agent = createReactAgent({
      llm,
      tools: toolNodeOf([toolWithInterrupt]),
      version,
      checkpointer: new MemorySaver(),
    });
    const res = await agent.invoke(
      { messages: [new HumanMessage('Hello Input!')] },
      { configurable: { thread_id: '1' } },
    );
    // only 2 messages before the interrupt
    expect(res.messages.length).toEqual(2);
    const resResume = await agent.invoke(new Command({ resume: 'Approved.' }), {
      configurable: { thread_id: '1' },
    });
    expect(resResume.messages.length).toEqual(4);
    expect(resResume.messages[2]?.content).toEqual('Approved.');
  });

  it('inherit task context', async () => {
    const parrot = tool(
      async (args, runtime: ToolRuntime<{ messages: BaseMessage[] }>) => {
        const { messages } = runtime.state;
        return `[tool] ${args.prefix}: ${messages.map((message) => message.text).join(', ')}`;
      },
      { name: 'test_tool', description: 'Test tool', schema: z.object({ prefix: z.string() }) },
    );
    const agent = createReactAgent({
      llm: new FakeToolCallingChatModel({
        responses: [
          new AIMessage({
            content: 'ai',
            tool_calls: [{ name: 'test_tool', args: { prefix: 'parrot' }, id: 'testid' }],
          }),
        ],
      }),
      tools: toolNodeOf([parrot]),
      version,
    });
    expect(await agent.invoke({ messages: 'input' })).toMatchObject({
      messages: [
        { text: 'input' },
        {
          text: 'ai',
          tool_calls: [{ name: 'test_tool', args: { prefix: 'parrot' }, id: 'testid' }],
        },
        { text: '[tool] parrot: input, ai' },
      ],
    });
  });

  // The repair message differs by design: ToolNode writes `Error: Tool "badtool" not found.\n
  // Please fix your mistakes.`; Switchyard names the tools the model may call.
  it('should handle tool errors', async () => {
    const res = await toolNodeOf([new SearchAPI()]).invoke([
      new AIMessage({ content: '', tool_calls: [{ name: 'badtool', args: {}, id: 'testid' }] }),
    ]);
    expect(res).toMatchObject([{ status: 'error', tool_call_id: 'testid' }]);
    expect(res[0].content).toMatch(/badtool[\s\S]*search_api/);
  });

  it('postModelHook + partial tool call application', async () => {
    const llm = new FakeToolCallingChatModel({
      responses: [
        new AIMessage({
          content: 'result1',
          tool_calls: [
            { name: 'search_api', id: 'tool_a', args: { query: 'foo' } },
            { name: 'search_api', id: 'tool_b', args: { query: 'bar' } },
          ],
        }),
        new AIMessage('done'),
      ],
    });
    const agent = createReactAgent({
      llm,
      tools: toolNodeOf([new SearchAPI()]),
      version,
      postModelHook: (state) => {
        const lastMessage = state.messages.at(-1);
        if (lastMessage != null && isAIMessage(lastMessage) && lastMessage.tool_calls?.length) {
          // apply only the first tool call
          const firstToolCall = lastMessage.tool_calls[0]!;
          return {
            messages: [
              new ToolMessage({ content: 'post-model-hook', tool_call_id: firstToolCall.id! }),
            ],
          };
        }
        return {};
      },
    });
    const result = await agent.invoke({ messages: [new HumanMessage("What's the weather?")] });
    expect(result).toMatchObject({
      messages: [
        { text: "What's the weather?" },
        {
          tool_calls: [
            { name: 'search_api', id: 'tool_a', args: { query: 'foo' } },
            { name: 'search_api', id: 'tool_b', args: { query: 'bar' } },
          ],
        },
        { text: 'post-model-hook' },
        { text: 'result for bar' },
        { text: 'done' },
      ],
    });
  });

  // LangGraph skips this case for v1, where one node runs both calls; the Switchyard node's own
  // v1 run of it is in interrupt-resume.test.ts.
  it.skipIf(version === 'v1')('parallel tool calls', async () => {
    const humanAssistance = tool(
      async (args) => {
        const human = interrupt({ query: args.query }) as { data: string };
        return human.data;
      },
      {
        name: 'human_assistance',
        description: 'Human assistance',
        schema: z.object({ query: z.string() }),
      },
    );
    const weather = tool((args) => `It's sunny in ${args.location}`, {
      name: 'weather',
      description: 'Weather tool',
      schema: z.object({ location: z.string() }),
    });
    const toolCalls = [
      { args: { location: 'sf' }, name: 'weather', id: 'get_weather' },
      { args: { query: 'help me' }, name: 'human_assistance', id: 'get_help' },
    ];
    const agent = createReactAgent({
      llm: new FakeToolCallingChatModel({
        responses: [
          new AIMessage({ content: 'ai response', tool_calls: toolCalls }),
          new AIMessage({ content: 'final response' }),
        ],
      }),
      tools: toolNodeOf([humanAssistance, weather]),
      version,
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: '1' } };
    const stream = await gather(
      agent.stream(
        { messages: 'Get user assistance and also check the weather' },
        { ...config, streamMode: 'values' },
      ),
    );
    const asked = { text: 'Get user assistance and also check the weather' };
    const answered = { text: 'ai response', tool_calls: toolCalls };
    expect(stream).toMatchObject([
      { messages: [asked] },
      { messages: [asked, answered] },
      { __interrupt__: [{ id: expect.any(String), value: { query: 'help me' } }] },
      { messages: [asked, answered, { text: "It's sunny in sf" }] },
    ]);
    const resume = await gather(
      agent.stream(new Command({ resume: { data: 'Resumed!' } }), {
        ...config,
        streamMode: 'values',
      }),
    );
    expect(resume).toMatchObject([
      { messages: [asked, answered] },
      { messages: [asked, answered, { text: "It's sunny in sf" }, { text: 'Resumed!' }] },
      {
        messages: [
          asked,
          answered,
          { text: "It's sunny in sf" },
          { text: 'Resumed!' },
          { text: 'final response' },
        ],
      },
    ]);
  });
});

async function gather<T>(stream: Promise<AsyncIterable<T>>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of await stream) items.push(item);
  return items;
}
