import { Agent, run, setTracingDisabled } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  abortListeners,
  activeTimers,
  campaignCalls,
  campaignDispatcher,
  endings,
  expectedEndings,
} from '../../../test/support/fault-campaign.js';
import { openAIAgentsTools } from '../src/index.js';

// The Runner's own work grows faster than the step (500 calls of its own tools take seconds on
// their own), so these two runs take longer than the other adapters' campaigns.
const calls = campaignCalls(500);
const BOUND = 8;

function agentOf(dispatcher: ReturnType<typeof campaignDispatcher>['dispatcher']) {
  const model = new ScriptedModel([
    calls.map((call) => functionCall(call.name, call.input, { callId: call.id })),
    [assistantMessage('done')],
  ]);
  const set = openAIAgentsTools({ dispatcher, maxConcurrentTools: BOUND });
  return new Agent({ name: 'campaign', model: set.model(model), tools: set.tools });
}

beforeEach(() => {
  setTracingDisabled(true);
});
afterEach(() => {
  setTracingDisabled(true);
});

describe('openAIAgentsTools under a fault campaign: one step of 500 calls with mixed faults', () => {
  it('every call ends once as its fault says, the bound holds, nothing is left behind', async () => {
    const stack = campaignDispatcher();
    const controller = new AbortController();
    const timers = activeTimers();
    const result = await run(agentOf(stack.dispatcher), 'campaign', { signal: controller.signal });
    expect(endings(calls, stack.receipts)).toEqual(expectedEndings(calls));
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    expect(outputs.map((item) => (item.rawItem as { callId: string }).callId).sort()).toEqual(
      calls.map((call) => call.id).sort(),
    );
    expect(result.finalOutput).toBe('done');
    expect(stack.peak).toBe(BOUND);
    expect(abortListeners(controller.signal)).toBe(0);
    expect(activeTimers()).toBe(timers);
  });

  it('aborted after 100 receipts: every call still ends once, cancelled or as its fault says', async () => {
    const controller = new AbortController();
    const stack = campaignDispatcher({
      onReceipt: (count) => {
        if (count === 100) controller.abort(new Error('campaign abort'));
      },
    });
    const timers = activeTimers();
    await expect(
      run(agentOf(stack.dispatcher), 'campaign', { signal: controller.signal }),
    ).rejects.toThrow('campaign abort');
    await expect.poll(() => stack.receiptCount).toBe(calls.length);
    expect(endings(calls, stack.receipts)).toEqual(expectedEndings(calls, stack.receipts));
    const cancelled = [...stack.receipts.values()].filter(([ending]) => ending === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(calls.length / 2);
    expect(stack.peak).toBeLessThanOrEqual(BOUND);
    expect(abortListeners(controller.signal)).toBe(0);
    expect(activeTimers()).toBe(timers);
  });
});
