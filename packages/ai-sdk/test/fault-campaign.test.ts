import { generateText, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  abortingCampaign,
  activeTimers,
  campaignCalls,
  campaignDispatcher,
  expectCampaignAborted,
  expectCampaignEnded,
} from '../../../test/support/fault-campaign.js';
import { aiSdkTools } from '../src/index.js';
import { streamed, textResponse, toolCallResponse } from './ai-sdk-support.js';

const calls = campaignCalls(500);
const BOUND = 8;

function toolResultIds(steps: readonly { toolResults: readonly { toolCallId: string }[] }[]) {
  return (steps[0]?.toolResults ?? []).map((part) => part.toolCallId).sort();
}

describe('aiSdkTools under a fault campaign: one step of 500 calls with mixed faults', () => {
  it('generateText: every call ends once as its fault says, the bound holds, nothing is left behind', async () => {
    const stack = campaignDispatcher();
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallResponse(calls), textResponse('done')],
    });
    const controller = new AbortController();
    const timers = activeTimers();
    const result = await generateText({
      model,
      prompt: 'campaign',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher, maxConcurrentTools: BOUND }),
    });
    expectCampaignEnded({ calls, stack, signal: controller.signal, timers, bound: BOUND });
    expect(toolResultIds(result.steps)).toEqual(calls.map((call) => call.id).sort());
    expect(result.text).toBe('done');
  });

  it('streamText, aborted after 100 receipts: every call still ends once, cancelled or as its fault says', async () => {
    const { controller, stack } = abortingCampaign(100);
    const model = new MockLanguageModelV4({
      doStream: [streamed(toolCallResponse(calls)), streamed(textResponse('done'))],
    });
    const timers = activeTimers();
    const result = streamText({
      model,
      prompt: 'campaign',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher, maxConcurrentTools: BOUND }),
    });
    await result.consumeStream();
    await expectCampaignAborted({ calls, stack, signal: controller.signal, timers, bound: BOUND });
  });
});
