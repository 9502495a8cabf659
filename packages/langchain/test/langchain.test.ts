import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import {
  AsyncLocalStorageProviderSingleton,
  MockAsyncLocalStorage,
} from '@langchain/core/singletons';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { createDispatcher, createToolRegistry, type Dispatcher } from 'switchyard';
import { deferred } from 'switchyard/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { recordingDispatcher } from '../../../test/support/recording-dispatcher.js';
import { fromLangChainTools, switchyardToolNode } from '../src/index.js';

/** A graph whose agent answers with `first` and then, once tools have answered, with "done". */
function graphOf(dispatcher: Dispatcher, first: () => Promise<AIMessage>, maxConcurrentTools = 8) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({
      messages: [
        state.messages.at(-1) instanceof ToolMessage ? new AIMessage('done') : await first(),
      ],
    }))
    .addNode('tools', switchyardToolNode({ dispatcher, maxConcurrentTools }))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
}

function toolMessagesOf(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => message instanceof ToolMessage);
}

describe('switchyardToolNode in a LangGraph graph', () => {
  it("answers LangChain's fake model's calls — unknown tool and schema violation included — with one result each", async () => {
    const stack = recordingDispatcher();
    const model = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({
          content: '',
          tool_calls: [
            { id: 'c0', name: 'add', args: { a: 1, b: 2 } },
            { id: 'c1', name: 'subtract', args: { a: 1, b: 2 } },
            { id: 'c3', name: 'add', args: { a: 'one', b: 2 } },
          ],
        }),
      ],
    });
    const graph = graphOf(stack.dispatcher, async () => (await model.invoke('go')) as AIMessage);
    const final = await graph.invoke(
      { messages: [new HumanMessage('add')] },
      { configurable: { thread_id: 'thread-1' } },
    );

    const answers = toolMessagesOf(final.messages);
    expect(answers.map((message) => message.tool_call_id)).toEqual(['c0', 'c1', 'c3']);
    expect(answers.map((message) => message.status)).toEqual(['success', 'error', 'error']);
    expect(stack.results.map((result) => result.status).sort()).toEqual([
      'ok',
      'schema_violation',
      'tool_not_found',
    ]);
    expect(stack.receipts).toHaveLength(3);
    expect(stack.receipts).toMatchObject([
      { session_id: 'thread-1' },
      { session_id: 'thread-1' },
      { session_id: 'thread-1' },
    ]);
    expect(answers[1]?.content).toBe(stack.results.find((r) => r.toolCallId === 'c1')?.observation);
    expect(final.messages.at(-1)?.content).toBe('done');
  });

  it('judges the raw text of a streamed call, which LangChain would have repaired', async () => {
    const stack = recordingDispatcher();
    const streamed = new AIMessageChunk({
      content: '',
      tool_call_chunks: [
        { id: 'c0', name: 'add', args: '{"a":1,"b":2}', index: 0, type: 'tool_call_chunk' },
        { id: 'c2', name: 'add', args: '{"a":1,', index: 1, type: 'tool_call_chunk' },
      ],
    });
    // LangChain's own parse turns the truncated text into a valid-looking call.
    expect(streamed.tool_calls?.[1]?.args).toEqual({ a: 1 });

    const final = await graphOf(stack.dispatcher, async () => streamed).invoke({
      messages: [new HumanMessage('add')],
    });
    const answers = toolMessagesOf(final.messages);
    expect(answers.map((message) => message.status)).toEqual(['success', 'error']);
    expect(stack.results.find((r) => r.toolCallId === 'c2')?.status).toBe('schema_violation');
  });

  it('runs one message of 40 calls at maxConcurrentTools 8: peak exactly 8, planner order kept', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const calls = Array.from({ length: 40 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      args: { a: index, b: 1 },
    }));
    const running = graphOf(
      stack.dispatcher,
      async () => new AIMessage({ content: '', tool_calls: calls }),
    ).invoke({ messages: [new HumanMessage('many')] });
    await expect.poll(() => stack.inFlight).toBe(8);
    gate.resolve();
    const final = await running;
    expect(stack.peak).toBe(8);
    expect(toolMessagesOf(final.messages).map((message) => message.tool_call_id)).toEqual(
      calls.map((call) => call.id),
    );
  });

  it("cancels the running tools and skips the queued ones when the graph's signal aborts", async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const calls = Array.from({ length: 6 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      args: { a: 1, b: 1 },
    }));
    const running = graphOf(
      stack.dispatcher,
      async () => new AIMessage({ content: '', tool_calls: calls }),
      2,
    ).invoke({ messages: [new HumanMessage('abort')] }, { signal: controller.signal });
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('stop'));
    await expect(running).rejects.toThrow();
    await expect.poll(() => stack.inFlight).toBe(0);
    expect(stack.aborted).toBe(2);
    expect(stack.started).toBe(2);
  });

  it.each([
    ['with', false],
    ['without', true],
  ])(
    "runs each LangChain tool as a child of the node's run, so tracing shows it (%s AsyncLocalStorage)",
    async (_, withoutStorage) => {
      const storage = withoutStorage
        ? vi
            .spyOn(AsyncLocalStorageProviderSingleton, 'getInstance')
            .mockReturnValue(new MockAsyncLocalStorage())
        : undefined;
      const weather = tool(async ({ city }) => `21 °C in ${city}`, {
        name: 'weather',
        description: 'Weather',
        schema: z.object({ city: z.string() }),
      });
      const dispatcher = createDispatcher({
        registry: createToolRegistry(fromLangChainTools([weather])),
      });
      const runs = new Map<string, string>();
      const toolParents: (string | undefined)[] = [];
      const tracer = BaseCallbackHandler.fromMethods({
        handleChainStart(_chain, _inputs, runId, _parentRunId, _tags, _metadata, _runType, name) {
          runs.set(runId, name ?? '');
        },
        handleToolStart(_tool, _input, _runId, parentRunId) {
          toolParents.push(parentRunId);
        },
      });
      await graphOf(
        dispatcher,
        async () =>
          new AIMessage({
            content: '',
            tool_calls: [{ id: 'w1', name: 'weather', args: { city: 'Oslo' } }],
          }),
      )
        .invoke({ messages: [new HumanMessage('weather')] }, { callbacks: [tracer] })
        .finally(() => storage?.mockRestore());
      expect(toolParents).toHaveLength(1);
      expect(runs.get(toolParents[0] ?? '')).toBe('tools');
    },
  );
});
