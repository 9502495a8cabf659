import {
  Agent,
  type FunctionCallItem,
  Runner,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { deferred } from 'switchyard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingDispatcher } from '../../../test/support/recording-dispatcher.js';
import { openAIAgentsTools, unlistedCallOf } from '../src/index.js';
import { NO_PARAMETERS } from './agents-support.js';

/** A good call, an unknown tool, malformed JSON and a schema violation, as the model sends them. */
const MIXED_STEP: readonly FunctionCallItem[] = [
  functionCall('add', '{"a":1,"b":2}', { callId: 'c0' }),
  functionCall('subtract', '{"a":1,"b":2}', { callId: 'c1' }),
  functionCall('add', '{"a":1,', { callId: 'c2' }),
  functionCall('add', '{"a":"one","b":2}', { callId: 'c3' }),
];

function addCalls(count: number): FunctionCallItem[] {
  return Array.from({ length: count }, (_, index) =>
    functionCall('add', `{"a":${index},"b":1}`, { callId: `c${index}` }),
  );
}

function scripted(...steps: readonly (readonly FunctionCallItem[])[]) {
  return new ScriptedModel([...steps.map((step) => [...step]), [assistantMessage('done')]]);
}

type Stack = ReturnType<typeof recordingDispatcher>;

/** An Agents tool of the agent's own, beside Switchyard's. */
function echoTool() {
  return tool({
    name: 'echo',
    description: 'Echo',
    parameters: NO_PARAMETERS,
    strict: false,
    execute: async () => 'echoed',
  });
}

function agentOf(stack: Stack, model: ScriptedModel, maxConcurrentTools?: number) {
  const set = openAIAgentsTools({ dispatcher: stack.dispatcher, maxConcurrentTools });
  return new Agent({ name: 'assistant', model: set.model(model), tools: set.tools });
}

/** What the model's second request holds: its own calls, and the result text of each. */
function transcriptSent(model: ScriptedModel) {
  const input = model.calls[1]?.request.input;
  const items = typeof input === 'string' ? [] : (input ?? []);
  return {
    calls: items.flatMap((item) =>
      item.type === 'function_call' ? [[item.callId, item.name, item.arguments]] : [],
    ),
    results: new Map(
      items.flatMap((item) =>
        item.type === 'function_call_result'
          ? [[item.callId, (item.output as { text?: string }).text] as const]
          : [],
      ),
    ),
    tools: model.calls[1]?.request.tools.map((each) => each.name),
  };
}

function expectOneSwitchyardAnswerEach(stack: Stack, model: ScriptedModel) {
  const byId = new Map(stack.results.map((result) => [result.toolCallId, result]));
  expect(stack.results).toHaveLength(4);
  expect(stack.receipts).toHaveLength(4);
  expect(byId.get('c0')).toMatchObject({ ok: true, result: 3, emitOrder: 0 });
  expect(byId.get('c1')).toMatchObject({ errorCategory: 'tool_not_found', emitOrder: 1 });
  expect(byId.get('c2')).toMatchObject({ status: 'schema_violation', emitOrder: 2 });
  expect(byId.get('c3')).toMatchObject({ status: 'schema_violation', emitOrder: 3 });

  const sent = transcriptSent(model);
  // The model reads its own calls back, as it wrote them.
  expect(sent.calls).toEqual(MIXED_STEP.map((call) => [call.callId, call.name, call.arguments]));
  expect(sent.tools).toEqual(['add']);
  expect(sent.results.size).toBe(4);
  for (const [callId, text] of sent.results) expect(text).toBe(byId.get(callId)?.observation);
}

afterEach(() => {
  setTracingDisabled(true);
});

describe('openAIAgentsTools under the Runner', () => {
  it('gives every proposed call one Switchyard result and receipt; the model reads ours', async () => {
    const stack = recordingDispatcher();
    const model = scripted(MIXED_STEP);
    const result = await run(agentOf(stack, model), 'add things');

    expect(result.finalOutput).toBe('done');
    expectOneSwitchyardAnswerEach(stack, model);
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    expect(outputs.map((item) => (item.rawItem as { callId: string }).callId).sort()).toEqual([
      'c0',
      'c1',
      'c2',
      'c3',
    ]);
  });

  it('does the same for a streamed run', async () => {
    const stack = recordingDispatcher();
    const model = scripted(MIXED_STEP);
    const streamed = await run(agentOf(stack, model), 'add things', { stream: true });
    await streamed.completed;
    expect(streamed.finalOutput).toBe('done');
    expectOneSwitchyardAnswerEach(stack, model);
  });

  it("carries refused calls under a listed tool's name in the run's own items", async () => {
    const stack = recordingDispatcher();
    const result = await run(agentOf(stack, scripted(MIXED_STEP)), 'add things');
    const calls = result.history.flatMap((item) => (item.type === 'function_call' ? [item] : []));
    expect(calls.map((call) => [call.callId, call.name, unlistedCallOf(call.arguments)])).toEqual([
      ['c0', 'add', null],
      ['c1', 'add', { name: 'subtract', arguments: '{"a":1,"b":2}' }],
      ['c2', 'add', { name: 'add', arguments: '{"a":1,' }],
      ['c3', 'add', null],
    ]);
  });

  it('leaves an unknown name to the Runner when the agent lists no Switchyard tool', async () => {
    const stack = recordingDispatcher();
    const set = openAIAgentsTools({ dispatcher: stack.dispatcher });
    const model = scripted([functionCall('subtract', '{}', { callId: 's0' })]);
    const agent = new Agent({ name: 'a', model: set.model(model), tools: [echoTool()] });
    await expect(run(agent, 'nothing to carry under')).rejects.toThrow(/subtract/);
    expect(stack.results).toHaveLength(0);
  });

  it('leaves the agent’s own Agents tools to the Runner', async () => {
    const stack = recordingDispatcher();
    const set = openAIAgentsTools({ dispatcher: stack.dispatcher });
    const model = scripted([
      functionCall('echo', '{}', { callId: 'e0' }),
      functionCall('add', '{"a":1,"b":1}', { callId: 'c0' }),
    ]);
    const agent = new Agent({
      name: 'a',
      model: set.model(model),
      tools: [...set.tools, echoTool()],
    });
    await run(agent, 'mixed');
    expect(stack.results.map((result) => result.toolCallId)).toEqual(['c0']);
    expect(transcriptSent(model).results.get('e0')).toBe('echoed');
  });

  it('runs the calls of a step as one turn: 40 calls at maxConcurrentTools 8 peak at exactly 8', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const calls = addCalls(40);
    const running = run(agentOf(stack, scripted(calls), 8), 'many');
    await expect.poll(() => stack.inFlight).toBe(8);
    gate.resolve();
    await running;
    expect(stack.peak).toBe(8);
    expect(stack.results).toHaveLength(40);
    const orders = new Map(stack.results.map((result) => [result.toolCallId, result.emitOrder]));
    expect(calls.map((call) => orders.get(call.callId))).toEqual(calls.map((_, index) => index));
  });

  it('cancels the rest of the step when a call fails and the turn says so', async () => {
    const stack = recordingDispatcher();
    const set = openAIAgentsTools({
      dispatcher: stack.dispatcher,
      maxConcurrentTools: 1,
      cancelSiblingsOnFailure: (result) => result.status === 'schema_violation',
    });
    const model = scripted([functionCall('add', '{"a":', { callId: 'bad' }), ...addCalls(3)]);
    await run(new Agent({ name: 'a', model: set.model(model), tools: set.tools }), 'x');
    expect(stack.receipts).toMatchObject([
      { tool_call_id: 'bad', status: 'schema_violation' },
      { tool_call_id: 'c0', status: 'cancelled' },
      { tool_call_id: 'c1', status: 'cancelled' },
      { tool_call_id: 'c2', status: 'cancelled' },
    ]);
    expect(stack.started).toBe(0);
    expect(transcriptSent(model).results.get('c0')).toMatch(/^\[cancelled: add\]/);
  });

  it("stamps the run's trace and group on every receipt and counts its steps", async () => {
    setTraceProcessors([]);
    setTracingDisabled(false);
    const stack = recordingDispatcher();
    const model = scripted(addCalls(2), [functionCall('add', '{"a":5,"b":5}', { callId: 'd0' })]);
    const runner = new Runner({ groupId: 'thread-7' });
    await runner.run(agentOf(stack, model), 'two steps');

    const receipts = stack.receipts as { session_id: string; run_id: string; iteration: number }[];
    expect(receipts.map((receipt) => [receipt.session_id, receipt.iteration])).toEqual([
      ['thread-7', 0],
      ['thread-7', 0],
      ['thread-7', 1],
    ]);
    expect(new Set(receipts.map((receipt) => receipt.run_id)).size).toBe(1);
    expect(receipts[0]?.run_id).toMatch(/^trace_/);
  });

  it('prefers the session the caller names over the trace group', async () => {
    setTraceProcessors([]);
    setTracingDisabled(false);
    const stack = recordingDispatcher();
    const set = openAIAgentsTools({ dispatcher: stack.dispatcher, turn: { sessionId: 'mine' } });
    const model = scripted(addCalls(1));
    const agent = new Agent({ name: 'a', model: set.model(model), tools: set.tools });
    await new Runner({ groupId: 'thread-7' }).run(agent, 'one');
    expect(stack.receipts).toMatchObject([{ session_id: 'mine' }]);
  });

  it('works through a wrapped model provider, for agents that name their model', async () => {
    const stack = recordingDispatcher();
    const set = openAIAgentsTools({ dispatcher: stack.dispatcher });
    const model = scripted(MIXED_STEP);
    const runner = new Runner({ modelProvider: set.modelProvider({ getModel: () => model }) });
    const agent = new Agent({ name: 'a', model: 'scripted', tools: set.tools });
    await runner.run(agent, 'named');
    expectOneSwitchyardAnswerEach(stack, model);
  });
});

describe('openAIAgentsTools when the run is aborted mid-step', () => {
  function abortable(stack: Stack) {
    return agentOf(stack, scripted(addCalls(6)), 2);
  }

  it('cancels the running tools and skips the queued ones; each call gets one receipt', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const running = run(abortable(stack), 'abort me', { signal: controller.signal });
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('user stopped'));
    await expect(running).rejects.toThrow('user stopped');
    await expect.poll(() => stack.receipts.length).toBe(6);
    expect(stack.receipts).toMatchObject(Array(6).fill({ status: 'cancelled' }));
    expect(stack.aborted).toBe(2);
    expect(stack.started).toBe(2);
  });

  it("leaves one Switchyard result per call in a streamed run's history", async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const streamed = await run(abortable(stack), 'abort me', {
      signal: controller.signal,
      stream: true,
    });
    const drained = (async () => {
      for await (const _event of streamed) {
        // Reading the stream is what drives a streamed run.
      }
    })();
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('user stopped'));
    await drained;
    await expect.poll(() => stack.receipts.length).toBe(6);

    expect(streamed.cancelled).toBe(true);
    const results = streamed.history.filter((item) => item.type === 'function_call_result');
    expect(results.map((item) => item.callId)).toEqual(addCalls(6).map((call) => call.callId));
    // Switchyard's cancelled observation, not the Runner's own 'aborted'.
    for (const item of results) {
      expect(item.output).toMatchObject({ type: 'text', text: '[cancelled: add]\nuser stopped' });
    }
    expect(stack.started).toBe(2);
  });
});
