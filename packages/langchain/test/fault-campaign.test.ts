import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import type { Dispatcher } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  abortingCampaign,
  abortListeners,
  activeTimers,
  type CampaignCall,
  campaignCalls,
  campaignDispatcher,
  expectCampaignAborted,
  expectCampaignEnded,
} from '../../../test/support/fault-campaign.js';
import { switchyardToolNode } from '../src/index.js';

const calls = campaignCalls(500);
const BOUND = 8;

/** The model's message: parsed calls, and the calls whose JSON did not parse as LangChain keeps them. */
function proposing(step: readonly CampaignCall[]): AIMessage {
  const tool_calls = [];
  const invalid_tool_calls = [];
  for (const [index, call] of step.entries()) {
    try {
      tool_calls.push({ id: call.id, name: call.name, args: JSON.parse(call.input) });
    } catch {
      invalid_tool_calls.push({
        id: call.id,
        name: call.name,
        args: call.input,
        index,
        error: 'bad JSON',
      });
    }
  }
  return new AIMessage({ content: '', tool_calls, invalid_tool_calls });
}

/** The abort signals LangGraph handed the tool node's runs. */
const nodeSignals: AbortSignal[] = [];

function graphOf(dispatcher: Dispatcher, step: readonly CampaignCall[] = calls) {
  const node = switchyardToolNode({ dispatcher, maxConcurrentTools: BOUND });
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (state) => ({
      messages: [
        state.messages.at(-1) instanceof ToolMessage || step.length === 0
          ? new AIMessage('done')
          : proposing(step),
      ],
    }))
    .addNode('tools', (state, config) => {
      if (config.signal !== undefined) nodeSignals.push(config.signal);
      return node.invoke(state, config);
    })
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
}

/**
 * The abort listeners LangGraph itself leaves on the caller's signal after a run that calls no
 * tool (one, with @langchain/langgraph 1.7): what the node may add to that is nothing.
 */
async function langGraphOwnListeners(): Promise<number> {
  const controller = new AbortController();
  await graphOf(campaignDispatcher().dispatcher, []).invoke(
    { messages: [new HumanMessage('nothing to call')] },
    { signal: controller.signal },
  );
  return abortListeners(controller.signal);
}

describe('switchyardToolNode under a fault campaign: one step of 500 calls with mixed faults', () => {
  it('every call ends once as its fault says, the bound holds, nothing is left behind', async () => {
    const stack = campaignDispatcher();
    const controller = new AbortController();
    const timers = activeTimers();
    const final = await graphOf(stack.dispatcher).invoke(
      { messages: [new HumanMessage('campaign')] },
      { signal: controller.signal },
    );
    const [signal, ...more] = nodeSignals.splice(0);
    expect(more).toEqual([]);
    expectCampaignEnded({ calls, stack, signal: signal as AbortSignal, timers, bound: BOUND });
    expect(abortListeners(controller.signal)).toBe(await langGraphOwnListeners());
    const answered = final.messages.filter((message) => message instanceof ToolMessage);
    expect(answered.map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
    expect(final.messages.at(-1)?.content).toBe('done');
  });

  it('aborted after 100 receipts: every call still ends once, cancelled or as its fault says', async () => {
    const { controller, stack } = abortingCampaign(100);
    const timers = activeTimers();
    await expect(
      graphOf(stack.dispatcher).invoke(
        { messages: [new HumanMessage('campaign')] },
        { signal: controller.signal },
      ),
    ).rejects.toThrow();
    await expectCampaignAborted({ calls, stack, signal: controller.signal, timers, bound: BOUND });
    expect(nodeSignals.splice(0).map(abortListeners)).toEqual([0]);
  });
});
