import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { deferred } from 'switchyard/testing';
import { describe, expect, it } from 'vitest';
import { recordingDispatcher } from '../../../test/support/recording-dispatcher.js';
import { aiSdkTools } from '../src/index.js';
import {
  MIXED_STEP,
  streamed,
  textResponse,
  toolCallResponse,
  type WireCall,
} from './ai-sdk-support.js';

function modelOf(...responses: Parameters<typeof toolCallResponse>[0][]) {
  return new MockLanguageModelV4({
    doGenerate: [...responses.map(toolCallResponse), textResponse('done')],
  });
}

/** The tool results the model is sent in its next request, by call id. */
function toolResultsSent(model: MockLanguageModelV4, request: number) {
  const prompt = model.doGenerateCalls[request]?.prompt ?? [];
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .filter((part) => part.type === 'tool-result');
}

describe('aiSdkTools behind generateText', () => {
  it('gives every proposed call one Switchyard result and one receipt, and the model reads ours', async () => {
    const stack = recordingDispatcher();
    const model = modelOf(MIXED_STEP);
    const result = await generateText({
      model,
      prompt: 'add things',
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher, turn: { sessionId: 's1' } }),
    });

    expect(result.text).toBe('done');
    const byId = new Map(stack.results.map((call) => [call.toolCallId, call]));
    expect([...byId.keys()].sort()).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(stack.results).toHaveLength(4);
    expect(stack.receipts).toHaveLength(4);
    expect(byId.get('c0')).toMatchObject({ ok: true, result: 3 });
    expect(byId.get('c1')?.status).toBe('tool_not_found');
    expect(byId.get('c2')?.status).toBe('schema_violation');
    expect(byId.get('c3')?.status).toBe('schema_violation');
    expect(stack.results.map((call) => call.emitOrder).sort()).toEqual([0, 1, 2, 3]);

    // The AI SDK's own record holds exactly one result per call, never its own error beside ours.
    const [step] = result.steps;
    expect(step?.toolResults.map((part) => part.toolCallId).sort()).toEqual([
      'c0',
      'c1',
      'c2',
      'c3',
    ]);
    expect(step?.content.filter((part) => part.type === 'tool-error')).toEqual([]);

    const sent = toolResultsSent(model, 1);
    expect(sent).toHaveLength(4);
    for (const part of sent) {
      const ours = byId.get(part.toolCallId);
      expect(part.output).toEqual({
        type: ours?.ok ? 'text' : 'error-text',
        value: ours?.observation,
      });
    }
  });

  it('passes made-up names on even through activeTools, and never lists them to the model', async () => {
    const stack = recordingDispatcher();
    const model = modelOf(MIXED_STEP, MIXED_STEP);
    await generateText({
      model,
      prompt: 'add things',
      stopWhen: stepCountIs(4),
      activeTools: ['add'],
      ...aiSdkTools({ dispatcher: stack.dispatcher }),
    });
    expect(stack.receipts).toHaveLength(8);
    expect(stack.results.filter((call) => call.toolName === 'subtract')).toMatchObject([
      { errorCategory: 'tool_not_found' },
      { errorCategory: 'tool_not_found' },
    ]);
    for (const request of model.doGenerateCalls) {
      expect(request.tools?.map((each) => each.name)).toEqual(['add']);
    }
  });

  it('runs the calls of a step as one turn: 40 calls at maxConcurrentTools 8 peak at exactly 8', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const calls: WireCall[] = Array.from({ length: 40 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      input: `{"a":${index},"b":1}`,
    }));
    const running = generateText({
      model: modelOf(calls),
      prompt: 'many',
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher, maxConcurrentTools: 8 }),
    });
    await expect.poll(() => stack.inFlight).toBe(8);
    gate.resolve();
    await running;
    expect(stack.peak).toBe(8);
    expect(stack.results).toHaveLength(40);
    const orders = new Map(stack.results.map((call) => [call.toolCallId, call.emitOrder]));
    expect(calls.map((call) => orders.get(call.id))).toEqual(calls.map((_, index) => index));
  });

  it('counts steps as turn iterations and stamps the session on every receipt', async () => {
    const stack = recordingDispatcher();
    await generateText({
      model: modelOf(
        [MIXED_STEP[0] as WireCall],
        [{ id: 'd0', name: 'add', input: '{"a":2,"b":2}' }],
      ),
      prompt: 'two steps',
      stopWhen: stepCountIs(4),
      ...aiSdkTools({ dispatcher: stack.dispatcher, turn: { sessionId: 'session-7' } }),
    });
    expect(stack.results.map((call) => call.toolCallId)).toEqual(['c0', 'd0']);
    expect(stack.receipts).toMatchObject([
      { iteration: 0, session_id: 'session-7' },
      { iteration: 1, session_id: 'session-7' },
    ]);
  });

  it('cancels the running and queued calls of a step when the AI SDK aborts', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const calls: WireCall[] = Array.from({ length: 6 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      input: '{"a":1,"b":1}',
    }));
    const running = generateText({
      model: modelOf(calls),
      prompt: 'abort me',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher, maxConcurrentTools: 2 }),
    });
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('user stopped'));
    await expect(running).rejects.toThrow('user stopped');
    // The two running tools saw the AI SDK's abort; the four queued behind them never started.
    await expect.poll(() => stack.inFlight).toBe(0);
    expect(stack.aborted).toBe(2);
    expect(stack.started).toBe(2);
  });
});

describe('aiSdkTools behind streamText and ToolLoopAgent', () => {
  it('streamText: one Switchyard result per call, including the ones the AI SDK would refuse', async () => {
    const stack = recordingDispatcher();
    const model = new MockLanguageModelV4({
      doStream: [streamed(toolCallResponse(MIXED_STEP)), streamed(textResponse('done'))],
    });
    const result = streamText({
      model,
      prompt: 'stream',
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher }),
    });
    expect(await result.text).toBe('done');
    expect(stack.results.map((call) => call.toolCallId).sort()).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(stack.receipts).toHaveLength(4);
    const steps = await result.steps;
    expect(steps[0]?.toolResults).toHaveLength(4);
    expect(steps[0]?.content.filter((part) => part.type === 'tool-error')).toEqual([]);
  });

  it("ToolLoopAgent: the agent's tool loop runs through Switchyard", async () => {
    const stack = recordingDispatcher();
    const agent = new ToolLoopAgent({
      model: modelOf(MIXED_STEP),
      stopWhen: stepCountIs(3),
      ...aiSdkTools({ dispatcher: stack.dispatcher }),
    });
    const result = await agent.generate({ prompt: 'agent' });
    expect(result.text).toBe('done');
    expect(stack.results).toHaveLength(4);
    expect(stack.receipts).toHaveLength(4);
  });
});
