import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, INTERRUPT, interrupt } from '@langchain/langgraph';
import { createReactAgent, ToolNode } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolRuntime,
  withAuditLog,
} from 'switchyard';
import { deferred } from 'switchyard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../../test/support/temp-dir.js';
import { fromLangChainTools, type LangGraphToolContext, switchyardToolNode } from '../src/index.js';
import { FakeToolCallingChatModel } from './support/prebuilt-suite.js';

/** LangChain tools with a side effect to count, and approvals that pause the graph. */
function shop() {
  const charged: string[] = [];
  const charge = tool(
    async ({ order }) => {
      charged.push(order);
      return `charged ${order}`;
    },
    { name: 'charge', description: 'Charge an order', schema: z.object({ order: z.string() }) },
  );
  const approve = tool(
    async ({ order }) => `${order}: ${interrupt({ approve: order }) as string}`,
    { name: 'approve', description: 'Ask a human', schema: z.object({ order: z.string() }) },
  );
  return { charged, tools: [charge, approve] };
}

/** A dispatcher over `tools` whose receipts are recorded as `call id:status`. */
function auditedDispatcher(tools: Parameters<typeof fromLangChainTools>[0]) {
  const receipts: string[] = [];
  const dispatcher = createDispatcher({
    registry: createToolRegistry(fromLangChainTools(tools)),
    caller: composeToolCallers([
      withAuditLog(async (receipt) => {
        receipts.push(`${receipt.tool_call_id}:${receipt.status}`);
      }),
    ]),
  });
  return { dispatcher, receipts };
}

const savers: SqliteSaver[] = [];
/** A checkpointer on a SQLite file; `file` reopens an earlier one. */
function sqliteSaver(file = join(tempDir('langgraph-'), 'checkpoints.db')) {
  const saver = SqliteSaver.fromConnString(file);
  savers.push(saver);
  return { saver, file };
}
afterEach(() => {
  for (const saver of savers.splice(0)) saver.db.close();
});

/** A model that proposes `calls`, then answers "done" (the same model across graphs). */
function modelOf(calls: { id: string; name: string; args: Record<string, unknown> }[]) {
  return new FakeToolCallingChatModel({
    responses: [new AIMessage({ content: '', tool_calls: calls }), new AIMessage('done')],
  });
}

function agentOf(
  tools: ToolNode,
  llm: FakeToolCallingChatModel,
  checkpointer: SqliteSaver,
  version: 'v1' | 'v2' = 'v1',
) {
  return createReactAgent({ llm, tools, version, checkpointer });
}

const thread = { configurable: { thread_id: 'order-7' } };

/** The interrupts a paused run reports (`__interrupt__`). */
function pausedOn(state: object): unknown {
  return (state as Record<string, unknown>)[INTERRUPT];
}

function answers(messages: readonly unknown[]) {
  return messages
    .filter((message): message is ToolMessage => message instanceof ToolMessage)
    .map((message) => [message.tool_call_id, message.content]);
}

describe('interrupt() and Command({ resume }) through switchyardToolNode, checkpointed in SQLite', () => {
  it.each(['v1', 'v2'] as const)(
    'pauses the graph, and on resume runs only the paused call (%s)',
    async (version) => {
      const { charged, tools } = shop();
      const { dispatcher, receipts } = auditedDispatcher(tools);
      const node = switchyardToolNode({ dispatcher });
      const calls = [
        { id: 'c1', name: 'charge', args: { order: 'o-1' } },
        { id: 'a1', name: 'approve', args: { order: 'o-1' } },
      ];
      const llm = modelOf(calls);
      const first = sqliteSaver();
      const paused = await agentOf(node, llm, first.saver, version).invoke(
        { messages: [new HumanMessage('charge and ask')] },
        thread,
      );
      expect(pausedOn(paused)).toMatchObject([{ value: { approve: 'o-1' } }]);
      expect(charged).toEqual(['o-1']);

      // The checkpoint is read back from the file by a new saver and a new graph.
      const reopened = sqliteSaver(first.file);
      const resumed = await agentOf(node, llm, reopened.saver, version).invoke(
        new Command({ resume: 'yes' }),
        thread,
      );
      expect(charged).toEqual(['o-1']);
      expect(answers(resumed.messages)).toEqual([
        ['c1', 'charged o-1'],
        ['a1', 'o-1: yes'],
      ]);
      expect(resumed.messages.at(-1)?.content).toBe('done');
      // One receipt per dispatch: the paused dispatch of a1 is cancelled, its resumed one is ok.
      expect(receipts.sort()).toEqual(['a1:cancelled', 'a1:ok', 'c1:ok']);
    },
  );

  it("differs from LangGraph's own ToolNode, which runs the completed call again on resume", async () => {
    const { charged, tools } = shop();
    const calls = [
      { id: 'c1', name: 'charge', args: { order: 'o-1' } },
      { id: 'a1', name: 'approve', args: { order: 'o-1' } },
    ];
    const { saver } = sqliteSaver();
    const agent = agentOf(new ToolNode(tools), modelOf(calls), saver);
    await agent.invoke({ messages: [new HumanMessage('charge and ask')] }, thread);
    await agent.invoke(new Command({ resume: 'yes' }), thread);
    expect(charged).toEqual(['o-1', 'o-1']);
  });

  it('answers two approvals of one step in turn, each with its own resume value', async () => {
    const { charged, tools } = shop();
    const { dispatcher } = auditedDispatcher(tools);
    const node = switchyardToolNode({ dispatcher });
    const calls = [
      { id: 'a1', name: 'approve', args: { order: 'o-1' } },
      { id: 'c1', name: 'charge', args: { order: 'o-1' } },
      { id: 'a2', name: 'approve', args: { order: 'o-2' } },
    ];
    const { saver } = sqliteSaver();
    const agent = agentOf(node, modelOf(calls), saver);
    const first = await agent.invoke({ messages: [new HumanMessage('two orders')] }, thread);
    expect(pausedOn(first)).toMatchObject([{ value: { approve: 'o-1' } }]);
    const second = await agent.invoke(new Command({ resume: 'yes' }), thread);
    expect(pausedOn(second)).toMatchObject([{ value: { approve: 'o-2' } }]);
    const done = await agent.invoke(new Command({ resume: 'no' }), thread);
    expect(answers(done.messages)).toEqual([
      ['a1', 'o-1: yes'],
      ['c1', 'charged o-1'],
      ['a2', 'o-2: no'],
    ]);
    expect(charged).toEqual(['o-1']);
  });

  it("waits for the step's running calls before pausing, and keeps what they returned", async () => {
    const gate = deferred();
    const slowStarted = deferred();
    let slowRuns = 0;
    const slow = tool(
      async () => {
        slowRuns += 1;
        slowStarted.resolve();
        await gate.promise;
        return 'slow done';
      },
      { name: 'slow', description: 'Takes its time', schema: z.object({}) },
    );
    const { tools } = shop();
    const { dispatcher } = auditedDispatcher([...tools, slow]);
    const node = switchyardToolNode({ dispatcher });
    const calls = [
      { id: 's1', name: 'slow', args: {} },
      { id: 'a1', name: 'approve', args: { order: 'o-1' } },
    ];
    const { saver } = sqliteSaver();
    const agent = agentOf(node, modelOf(calls), saver);
    let settled = false;
    const pausing = agent.invoke({ messages: [new HumanMessage('slow')] }, thread).finally(() => {
      settled = true;
    });
    await slowStarted.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    gate.resolve();
    expect(pausedOn(await pausing)).toHaveLength(1);
    const resumed = await agent.invoke(new Command({ resume: 'ok' }), thread);
    expect(slowRuns).toBe(1);
    expect(answers(resumed.messages)).toEqual([
      ['s1', 'slow done'],
      ['a1', 'o-1: ok'],
    ]);
  });

  it('lets a Switchyard tool pause the graph through its LangGraphToolContext', async () => {
    const confirm = defineTool({
      name: 'confirm',
      description: 'Asks before it acts',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      injected: ['context'],
      handler: (_args, runtime: ToolRuntime<LangGraphToolContext>) =>
        `confirmed: ${runtime.context?.interrupt<string>(runtime.callId, 'sure?')}`,
    });
    const node = switchyardToolNode({
      dispatcher: createDispatcher({ registry: createToolRegistry([confirm]) }),
    });
    const { saver } = sqliteSaver();
    const agent = agentOf(node, modelOf([{ id: 'k1', name: 'confirm', args: {} }]), saver);
    const paused = await agent.invoke({ messages: [new HumanMessage('go')] }, thread);
    expect(pausedOn(paused)).toMatchObject([{ value: 'sure?' }]);
    const resumed = await agent.invoke(new Command({ resume: 'yes' }), thread);
    expect(answers(resumed.messages)).toEqual([['k1', 'confirmed: yes']]);
  });

  it('runs only the unfinished calls when an aborted graph is invoked again', async () => {
    const { charged, tools } = shop();
    const gate = deferred();
    let lookups = 0;
    const lookup = tool(
      async (_args, config) => {
        lookups += 1;
        if (lookups === 1) {
          await new Promise((resolve) => config.signal?.addEventListener('abort', resolve));
        }
        await gate.promise;
        return 'found';
      },
      { name: 'lookup', description: 'Waits its turn', schema: z.object({}) },
    );
    const controller = new AbortController();
    const { dispatcher } = auditedDispatcher([...tools, lookup]);
    const node = switchyardToolNode({ dispatcher });
    const calls = [
      { id: 'c1', name: 'charge', args: { order: 'o-1' } },
      { id: 'l1', name: 'lookup', args: {} },
    ];
    const { saver } = sqliteSaver();
    const agent = agentOf(node, modelOf(calls), saver);
    const aborted = agent.invoke(
      { messages: [new HumanMessage('charge, then look up')] },
      { ...thread, signal: controller.signal },
    );
    await expect.poll(() => charged.length).toBe(1);
    await expect.poll(() => lookups).toBe(1);
    controller.abort(new Error('stop'));
    gate.resolve();
    await expect(aborted).rejects.toThrow();
    const again = await agent.invoke(null, thread);
    expect(charged).toEqual(['o-1']);
    expect(lookups).toBe(2);
    expect(answers(again.messages)).toEqual([
      ['c1', 'charged o-1'],
      ['l1', 'found'],
    ]);
  });
});
