import { generateText, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  abortListeners,
  activeTimers,
  campaignCalls,
  campaignDispatcher,
  endings,
  expectedEndings,
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
    expect(endings(calls, stack.receipts)).toEqual(expectedEndings(calls));
    expect(toolResultIds(result.steps)).toEqual(calls.map((call) => call.id).sort());
    expect(result.text).toBe('done');
    expect(stack.peak).toBe(BOUND);
    expect(abortListeners(controller.signal)).toBe(0);
    expect(activeTimers()).toBe(timers);
  });

  it('streamText, aborted after 100 receipts: every call still ends once, cancelled or as its fault says', async () => {
    const controller = new AbortController();
    const stack = campaignDispatcher({
      onReceipt: (count) => {
        if (count === 100) controller.abort(new Error('campaign abort'));
      },
    });
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
    await expect.poll(() => stack.receiptCount).toBe(calls.length);
    expect(endings(calls, stack.receipts)).toEqual(expectedEndings(calls, stack.receipts));
    const cancelled = [...stack.receipts.values()].filter(([ending]) => ending === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(calls.length / 2);
    expect(stack.peak).toBeLessThanOrEqual(BOUND);
    expect(abortListeners(controller.signal)).toBe(0);
    expect(activeTimers()).toBe(timers);
  });
});
