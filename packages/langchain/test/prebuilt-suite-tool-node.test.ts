// The `ToolNode` cases of LangGraph's `prebuilt.test.ts`, run against `switchyardToolNode`
// (`toolNodeOf([...])` where the original builds `new ToolNode([...])`). Source and license:
// support/prebuilt-suite.ts. Where Switchyard differs by design, the case says so.

import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { CallbackManager } from '@langchain/core/callbacks/manager';
import { AIMessage, type BaseMessage, isAIMessage } from '@langchain/core/messages';
import { type RunnableConfig, RunnableLambda } from '@langchain/core/runnables';
import {
  AsyncLocalStorageProviderSingleton,
  MockAsyncLocalStorage,
} from '@langchain/core/singletons';
import { type ToolRuntime, tool } from '@langchain/core/tools';
import {
  Annotation,
  getCurrentTaskInput,
  MessagesZodState,
  messagesStateReducer,
  StateGraph,
} from '@langchain/langgraph';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v3';
import { SearchAPI, toolNodeOf } from './support/prebuilt-suite.js';

const userInfoCall = new AIMessage({
  content: '',
  tool_calls: [{ name: 'get_user_info', args: {}, id: 'call_user_info' }],
});

describe('ToolNode', () => {
  // The repair message differs by design (see "should handle tool errors").
  it('Should support graceful error handling', async () => {
    const res = await toolNodeOf([new SearchAPI()]).invoke([
      new AIMessage({ content: '', tool_calls: [{ name: 'badtool', args: {}, id: 'testid' }] }),
    ]);
    expect(res[0].status).toBe('error');
    expect(res[0].content).toMatch(/badtool[\s\S]*search_api/);
  });

  it('forwards graph state to tools via runtime.state (graph node)', async () => {
    const AgentState = z.object({ ...MessagesZodState.shape, userId: z.string() });
    let observedUserId: string | undefined;
    const getUserInfo = tool(
      async (_input: Record<string, never>, runtime: ToolRuntime<typeof AgentState>) => {
        observedUserId = runtime.state.userId;
        return observedUserId === 'user_123' ? 'User is John Smith' : 'Unknown user';
      },
      { name: 'get_user_info', description: 'Look up user info.', schema: z.object({}) },
    );
    const graph = new StateGraph(AgentState)
      .addNode('tools', toolNodeOf([getUserInfo]))
      .addEdge('__start__', 'tools')
      .compile();
    const result = await graph.invoke({ messages: [userInfoCall], userId: 'user_123' });
    expect(observedUserId).toBe('user_123');
    expect(result.messages.at(-1)?.content).toBe('User is John Smith');
  });

  it('forwards input to tools via runtime.state on direct .invoke()', async () => {
    let observedUserId: string | undefined;
    const getUserInfo = tool(
      async (_input: Record<string, never>, runtime: ToolRuntime<{ userId: string }>) => {
        observedUserId = runtime.state.userId;
        return 'ok';
      },
      { name: 'get_user_info', description: 'Look up user info.', schema: z.object({}) },
    );
    await toolNodeOf([getUserInfo]).invoke({
      messages: [userInfoCall],
      userId: 'user_123',
    } as unknown as { messages: BaseMessage[] });
    expect(observedUserId).toBe('user_123');
  });

  it('runtime.state works without AsyncLocalStorage (browser-like)', async () => {
    const getInstanceSpy = vi
      .spyOn(AsyncLocalStorageProviderSingleton, 'getInstance')
      .mockReturnValue(new MockAsyncLocalStorage());
    try {
      expect(AsyncLocalStorageProviderSingleton.getRunnableConfig()).toBeUndefined();
      const AgentState = z.object({ ...MessagesZodState.shape, userId: z.string() });
      let observedUserId: string | undefined;
      let implicitLookupThrew = false;
      const getUserInfo = tool(
        async (_input: Record<string, never>, runtime: ToolRuntime<typeof AgentState>) => {
          try {
            getCurrentTaskInput();
          } catch {
            implicitLookupThrew = true;
          }
          observedUserId = runtime.state.userId;
          return 'ok';
        },
        { name: 'get_user_info', description: 'Look up user info.', schema: z.object({}) },
      );
      const graph = new StateGraph(AgentState)
        .addNode('tools', toolNodeOf([getUserInfo]))
        .addEdge('__start__', 'tools')
        .compile();
      await graph.invoke({ messages: [userInfoCall], userId: 'user_123' });
      expect(implicitLookupThrew).toBe(true);
      expect(observedUserId).toBe('user_123');
    } finally {
      getInstanceSpy.mockRestore();
    }
  });

  it('still exposes state via getCurrentTaskInput(config) for backwards compatibility', async () => {
    const AgentState = z.object({ ...MessagesZodState.shape, userId: z.string() });
    let observedUserId: string | undefined;
    const getUserInfo = tool(
      async (_input: Record<string, never>, config: RunnableConfig) => {
        const state = getCurrentTaskInput(config) as z.infer<typeof AgentState>;
        observedUserId = state.userId;
        return 'ok';
      },
      { name: 'get_user_info', description: 'Look up user info.', schema: z.object({}) },
    );
    const graph = new StateGraph(AgentState)
      .addNode('tools', toolNodeOf([getUserInfo]))
      .addEdge('__start__', 'tools')
      .compile();
    await graph.invoke({ messages: [userInfoCall], userId: 'user_123' });
    expect(observedUserId).toBe('user_123');
  });

  // Skipped in LangGraph until @langchain/core passes the call id to `handleToolStart`, which
  // @langchain/core 1.4 does: it runs here.
  it('passes toolCallId to handleToolStart when invoking a tool', async () => {
    let capturedToolCallId: string | undefined;
    const recordingTool = tool(async (_args: { x: number }) => 'ok', {
      name: 'recorder',
      description: 'Records config',
      schema: z.object({ x: z.number() }),
    });
    await toolNodeOf([recordingTool]).invoke(
      [
        new AIMessage({
          content: '',
          tool_calls: [{ name: 'recorder', args: { x: 1 }, id: 'call_abc123', type: 'tool_call' }],
        }),
      ],
      {
        callbacks: [
          {
            handleToolStart(...args: unknown[]) {
              capturedToolCallId = args[7] as string | undefined;
            },
          },
        ],
      },
    );
    expect(capturedToolCallId).toBe('call_abc123');
  });

  it('Should work when nested with a callback manager passed', async () => {
    const toolNode = toolNodeOf([new SearchAPI()]);
    const wrapper = RunnableLambda.from(async (_) =>
      toolNode.invoke([
        new AIMessage({
          content: '',
          tool_calls: [{ name: 'search_api', args: { query: 'foo' }, id: 'testid' }],
        }),
      ]),
    );
    let runnableStartCount = 0;
    const callbackManager = new CallbackManager();
    callbackManager.addHandler(
      BaseCallbackHandler.fromMethods({
        handleChainStart: () => {
          runnableStartCount += 1;
        },
        handleToolStart: () => {
          runnableStartCount += 1;
        },
      }),
    );
    await wrapper.invoke({}, { callbacks: callbackManager });
    expect(runnableStartCount).toEqual(2);
  });

  it('Should work in a state graph', async () => {
    const AgentAnnotation = Annotation.Root({
      messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
      prop2: Annotation<string>,
    });
    const weatherTool = tool(
      async ({ query }) =>
        query.toLowerCase().includes('sf') || query.toLowerCase().includes('san francisco')
          ? "It's 60 degrees and foggy."
          : "It's 90 degrees and sunny.",
      {
        name: 'weather',
        description: 'Call to get the current weather for a location.',
        schema: z.object({ query: z.string().describe('The query to use in your search.') }),
      },
    );
    const aiMessage = new AIMessage({
      content: '',
      tool_calls: [{ id: 'call_1234', args: { query: 'SF' }, name: 'weather', type: 'tool_call' }],
    });
    const aiMessage2 = new AIMessage({ content: 'FOO' });
    async function callModel(state: typeof AgentAnnotation.State) {
      if (state.messages.includes(aiMessage)) return { messages: [aiMessage2] };
      return { messages: [aiMessage] };
    }
    function shouldContinue({ messages }: typeof AgentAnnotation.State): 'tools' | '__end__' {
      const lastMessage = messages[messages.length - 1];
      if (lastMessage === undefined || !isAIMessage(lastMessage)) return '__end__';
      return (lastMessage.tool_calls?.length ?? 0) > 0 ? 'tools' : '__end__';
    }
    const graph = new StateGraph(AgentAnnotation)
      .addNode('agent', callModel)
      .addNode('tools', toolNodeOf([weatherTool]))
      .addEdge('__start__', 'agent')
      .addConditionalEdges('agent', shouldContinue)
      .addEdge('tools', 'agent')
      .compile();
    const res = await graph.invoke({ messages: [] });
    const toolMessageId = res.messages[1]?.id;
    expect(res).toEqual({
      messages: [
        aiMessage,
        expect.objectContaining({
          id: toolMessageId,
          name: 'weather',
          artifact: undefined,
          content: "It's 60 degrees and foggy.",
          tool_call_id: 'call_1234',
        }),
        aiMessage2,
      ],
    });
  });
});
