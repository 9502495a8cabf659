import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { markIncompleteToolCalls, switchyardToolNode } from '../src/index.js';
import { FakeToolCallingChatModel } from './support/prebuilt-suite.js';

/** A `reserve` tool whose every argument but `sku` is optional, so a cut call still validates. */
function reserveTool() {
  const ran: unknown[] = [];
  const reserve = defineTool({
    name: 'reserve',
    description: 'Reserve stock',
    inputSchema: {
      type: 'object',
      properties: { sku: { type: 'string' }, orderId: { type: 'string' }, qty: { type: 'number' } },
      required: ['sku'],
      additionalProperties: false,
    },
    handler: (args) => {
      ran.push(args);
      return 'reserved';
    },
  });
  return { dispatcher: createDispatcher({ registry: createToolRegistry([reserve]) }), ran };
}

/** What a stream cut short leaves: the first call lacks its brace, the second its last value. */
function cutStream() {
  return new AIMessageChunk({
    content: '',
    tool_call_chunks: [
      { id: 'c0', name: 'reserve', args: '{"sku":"SKU-7"', index: 0, type: 'tool_call_chunk' },
      {
        id: 'c1',
        name: 'reserve',
        args: '{"orderId":"o-cut","sku":"SKU-7","qty":',
        index: 1,
        type: 'tool_call_chunk',
      },
      { id: 'c2', name: 'reserve', args: '{"sku":"SKU-9"}', index: 2, type: 'tool_call_chunk' },
    ],
  });
}

function graphOf(dispatcher: ReturnType<typeof reserveTool>['dispatcher'], mark: boolean) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', () => ({
      messages: [mark ? markIncompleteToolCalls(cutStream()) : cutStream()],
    }))
    .addNode('tools', switchyardToolNode({ dispatcher }))
    .addEdge(START, 'agent')
    .addEdge('agent', 'tools')
    .compile();
}

describe('markIncompleteToolCalls', () => {
  it('keeps a cut call from running in a MessagesAnnotation graph, whose reducer drops the raw text', async () => {
    const unmarked = reserveTool();
    await graphOf(unmarked.dispatcher, false).invoke({ messages: [new HumanMessage('reserve')] });
    // The control: the reducer turns the chunk into a message whose repaired calls look whole.
    expect(unmarked.ran).toEqual([
      { sku: 'SKU-7' },
      { orderId: 'o-cut', sku: 'SKU-7' },
      { sku: 'SKU-9' },
    ]);

    const marked = reserveTool();
    const final = await graphOf(marked.dispatcher, true).invoke({
      messages: [new HumanMessage('reserve')],
    });
    expect(marked.ran).toEqual([{ sku: 'SKU-9' }]);
    const answers = final.messages.filter((message) => message instanceof ToolMessage);
    expect(answers.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['c0', 'error'],
      ['c1', 'error'],
      ['c2', 'success'],
    ]);
    expect(answers[1]?.content).toContain('Invalid arguments for tool "reserve"');
  });

  it('returns a whole message as it is, and a chunk whose calls all arrived whole unmarked', () => {
    const whole = new AIMessage({
      content: '',
      tool_calls: [{ id: 'w', name: 'reserve', args: { sku: 'A' } }],
    });
    expect(markIncompleteToolCalls(whole)).toBe(whole);
    const streamed = markIncompleteToolCalls(
      new AIMessageChunk({
        content: 'ok',
        id: 'run-1',
        tool_call_chunks: [
          { id: 'w', name: 'reserve', args: '{"sku":"A"}', index: 0, type: 'tool_call_chunk' },
        ],
      }),
    );
    expect(streamed).toBeInstanceOf(AIMessage);
    expect(streamed).not.toBeInstanceOf(AIMessageChunk);
    expect(streamed).toMatchObject({ id: 'run-1', content: 'ok' });
    expect((streamed as AIMessage).tool_calls).toEqual([
      { id: 'w', name: 'reserve', args: { sku: 'A' }, type: 'tool_call' },
    ]);
  });

  it("reaches the node through createReactAgent's Send fan-out when piped after the model", async () => {
    const { dispatcher, ran } = reserveTool();
    const model = new FakeToolCallingChatModel({ responses: [cutStream(), new AIMessage('done')] });
    const agent = createReactAgent({
      llm: model.pipe(markIncompleteToolCalls),
      tools: switchyardToolNode({ dispatcher }),
      version: 'v2',
    });
    const final = await agent.invoke({ messages: [new HumanMessage('reserve')] });
    expect(ran).toEqual([{ sku: 'SKU-9' }]);
    const answers = final.messages.filter((message) => message instanceof ToolMessage);
    expect(answers.map((message) => message.status).sort()).toEqual(['error', 'error', 'success']);
  });
});
