import { Agent, run, setTracingDisabled } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  abortingCampaign,
  activeTimers,
  campaignCalls,
  campaignDispatcher,
  expectCampaignAborted,
  expectCampaignEnded,
} from '../../../test/support/fault-campaign.js';
import { openAIAgentsTools } from '../src/index.js';

// The Runner's own work grows with the square of the step: for every call it checks the run's
// items, building an error with a stack trace for each one that does not match (500 calls of its
// own tools take seconds on their own). Stack traces are left out while these runs last, which
// halves that, and each run may take longer than the other adapters' under a loaded machine.
const calls = campaignCalls(500);
const RUNNER_TIME_LIMIT_MS = 60_000;
let stackTraceLimit = Error.stackTraceLimit;
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
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
});
afterEach(() => {
  Error.stackTraceLimit = stackTraceLimit;
});

describe('openAIAgentsTools under a fault campaign: one step of 500 calls with mixed faults', () => {
  it('every call ends once as its fault says, the bound holds, nothing is left behind', {
    timeout: RUNNER_TIME_LIMIT_MS,
  }, async () => {
    const stack = campaignDispatcher();
    const controller = new AbortController();
    const timers = activeTimers();
    const result = await run(agentOf(stack.dispatcher), 'campaign', { signal: controller.signal });
    expectCampaignEnded({ calls, stack, signal: controller.signal, timers, bound: BOUND });
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    expect(outputs.map((item) => (item.rawItem as { callId: string }).callId).sort()).toEqual(
      calls.map((call) => call.id).sort(),
    );
    expect(result.finalOutput).toBe('done');
  });

  it('aborted after 100 receipts: every call still ends once, cancelled or as its fault says', {
    timeout: RUNNER_TIME_LIMIT_MS,
  }, async () => {
    const { controller, stack } = abortingCampaign(100);
    const timers = activeTimers();
    await expect(
      run(agentOf(stack.dispatcher), 'campaign', { signal: controller.signal }),
    ).rejects.toThrow('campaign abort');
    await expectCampaignAborted({ calls, stack, signal: controller.signal, timers, bound: BOUND });
  });
});
