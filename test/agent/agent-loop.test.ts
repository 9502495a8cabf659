import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  agentLoop,
  CancelledError,
  createToolRegistry,
  InvalidOptionError,
  ModelError,
  mergeAudit,
  type ToolCaller,
} from '../../src/index.js';
import type { ToolCallDelta } from '../../src/streams/index.js';
import { createScriptedModel, recordingTool } from '../../src/testing/index.js';
import { addTool } from '../support/tools.js';

const tools = createToolRegistry([addTool]);
const noWait = async () => {};

describe('agentLoop: turns and the transcript', () => {
  it('runs the calls, sends the results back in planner order, and ends on an answer', async () => {
    const model = createScriptedModel({
      turns: [
        {
          text: 'Adding.',
          toolCalls: [
            { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
            { id: 'c2', name: 'add', arguments: { a: 3, b: 4 } },
          ],
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        { text: 'The sums are 3 and 7.', usage: { inputTokens: 20, outputTokens: 6 } },
      ],
    });
    const run = await agentLoop({ task: 'add things', model, tools, system: 'You add.' });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('The sums are 3 and 7.');
    expect(run.iterations).toBe(2);
    expect(run.usage).toEqual({ inputTokens: 30, outputTokens: 11 });
    expect(run.results.map((r) => [r.toolCallId, r.result])).toEqual([
      ['c1', 3],
      ['c2', 7],
    ]);
    expect(run.transcript).toEqual([
      { role: 'user', text: 'add things' },
      {
        role: 'assistant',
        text: 'Adding.',
        toolCalls: [
          { id: 'c1', name: 'add', argumentsText: '{"a":1,"b":2}' },
          { id: 'c2', name: 'add', argumentsText: '{"a":3,"b":4}' },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'c1', toolName: 'add', content: '3', isError: false },
          { toolCallId: 'c2', toolName: 'add', content: '7', isError: false },
        ],
      },
      { role: 'assistant', text: 'The sums are 3 and 7.', toolCalls: [] },
    ]);
    expect(model.requests[1]?.messages).toEqual(run.transcript.slice(0, 3));
    expect(model.requests[0]?.system).toBe('You add.');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['add']);
  });

  it('answers a malformed or unknown call with its repair message and never runs it', async () => {
    const add = recordingTool({ name: 'add' });
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'bad', name: 'add', arguments: '{"a":1,' },
            { id: 'who', name: 'multiply', arguments: {} },
          ],
        },
        { text: 'Sorry.' },
      ],
    });
    const run = await agentLoop({ task: 't', model, tools: createToolRegistry([add.tool]) });
    expect(add.callCount).toBe(0);
    expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['bad', 'schema_violation'],
      ['who', 'tool_not_found'],
    ]);
    expect(run.turns[0]?.retracted).toEqual([]);
    const answers = run.transcript[2];
    expect(answers?.role).toBe('tool');
    if (answers?.role !== 'tool') return;
    expect(answers.results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['bad', true],
      ['who', true],
    ]);
    expect(answers.results[1]?.content).toContain('add');
    expect(run.status).toBe('completed');
  });

  it('records provider-hosted calls with executor provider_native and never dispatches them', async () => {
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'h1', name: 'web_search', providerNative: true, arguments: { q: 'x' } },
          ],
        },
      ],
    });
    const run = await agentLoop({ task: 't', model, tools });
    expect(run.turns[0]?.providerNative).toEqual([
      { executor: 'provider_native', toolCallId: 'h1', toolName: 'web_search', input: { q: 'x' } },
    ]);
    expect(run.results).toEqual([]);
    expect(run.status).toBe('completed');
  });
});

describe('agentLoop: how a run ends', () => {
  it('stops at maxIterations while the model keeps calling tools', async () => {
    const call = { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] };
    const model = createScriptedModel({ turns: [call, call, call] });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      maxIterations: 2,
      loopDetection: false,
    });
    expect(run.status).toBe('max_iterations');
    expect(run.iterations).toBe(2);
    expect(model.remaining).toBe(1);
  });

  it('with loopUntilDone, nudges an answer without the marker and ends on ##DONE##', async () => {
    const model = createScriptedModel({
      turns: [{ text: 'Thinking.' }, { text: 'All set. ##DONE##' }],
    });
    const run = await agentLoop({ task: 't', model, tools, loopUntilDone: true });
    expect(run.status).toBe('done');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(run.iterations).toBe(2);
  });

  it('ends when a loopUntilDone predicate says so', async () => {
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'never' }],
    });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      loopUntilDone: (turn) => turn.results.some((r) => r.result === 3),
    });
    expect(run.status).toBe('done');
    expect(model.remaining).toBe(1);
  });

  it('retries a model turn that failed transiently, and counts the failed attempt', async () => {
    const events: AgentEvent[] = [];
    const model = createScriptedModel({
      turns: [{ text: 'partial', failAfter: { deltas: 1 } }, { text: 'ok' }],
    });
    const run = await agentLoop({
      task: 't',
      model,
      tools,
      sleep: noWait,
      onEvent: (event) => events.push(event),
    });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('ok');
    expect(run.turns.map((turn) => turn.outcome)).toEqual(['failed', 'completed']);
    expect(events.filter((e) => e.type === 'model_retry')).toMatchObject([
      { iteration: 0, attempt: 1, delayMs: 500 },
    ]);
    expect(run.transcript.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('fails with the ModelError when a failure is not transient', async () => {
    const denied = new ModelError('anthropic: invalid key', {
      provider: 'anthropic',
      category: 'auth',
      status: 401,
      retryable: false,
    });
    const model = createScriptedModel({ turns: [{ failAfter: { deltas: 0, error: denied } }] });
    const run = await agentLoop({ task: 't', model, tools, sleep: noWait });
    expect(run.status).toBe('failed');
    expect(run.error).toBe(denied);
    expect(run.turns).toHaveLength(1);
  });

  it('fails the run, without rejecting, when the model throws before it streams', async () => {
    const broken = new Error('cannot build the request');
    const model = {
      provider: 'custom',
      model: 'm',
      toolCalling: 'native' as const,
      stream: (): AsyncIterable<ToolCallDelta> => {
        throw broken;
      },
    };
    const run = await agentLoop({ task: 't', model, tools });
    expect(run.status).toBe('failed');
    expect(run.error).toBe(broken);
  });

  it('gives up after maxModelRetries', async () => {
    const flaky = { failAfter: { deltas: 0 } };
    const model = createScriptedModel({ turns: [flaky, flaky, flaky] });
    const run = await agentLoop({ task: 't', model, tools, sleep: noWait, maxModelRetries: 1 });
    expect(run.status).toBe('failed');
    expect(run.turns).toHaveLength(2);
  });

  it('is cancelled by its signal, and the running call sees the abort', async () => {
    const slow = recordingTool({ name: 'slow' }).hangs({ untilAborted: true });
    const controller = new AbortController();
    const model = createScriptedModel({ turns: [{ toolCalls: [{ id: 's', name: 'slow' }] }] });
    const running = agentLoop({
      task: 't',
      model,
      tools: createToolRegistry([slow.tool]),
      signal: controller.signal,
    });
    await slow.nextCall();
    controller.abort();
    const run = await running;
    expect(run.status).toBe('cancelled');
    expect(CancelledError.isInstance(run.error)).toBe(true);
    expect(run.results.map((r) => r.status)).toEqual(['cancelled']);
    expect(slow.lastCall?.signal.aborted).toBe(true);
  });
});

describe('agentLoop: the loop guard and the middleware', () => {
  it('warns, blocks, then refuses a call repeated with the same result', async () => {
    const again = { toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }] };
    const model = createScriptedModel({ turns: [again, again, again, again, { text: 'ok' }] });
    const run = await agentLoop({ task: 't', model, tools });
    expect(run.results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'rejected_loop']);
    expect(run.results[1]?.observation).toContain('[LOOP DETECTED]');
    expect(run.results[2]?.observation).toMatch(/^BLOCKED: add\(\) returned the same result 3/);
    expect(run.results[3]).toMatchObject({
      ok: false,
      errorCategory: 'rejected_loop',
      result: { loop_skipped: true, repeat_count: 4 },
    });
  });

  it('runs calls through the given toolCaller inside the loop guard', async () => {
    const seen: string[] = [];
    const tag: ToolCaller = async function tag(call, next) {
      seen.push(call.turn.sessionId);
      const result = await next(call);
      return { ...result, audit: mergeAudit(result.audit, { summary: 'tagged' }) };
    };
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'done' }],
    });
    const run = await agentLoop({ task: 't', model, tools, toolCaller: tag, sessionId: 's-9' });
    expect(seen).toEqual(['s-9']);
    expect(run.results[0]?.audit?.summary).toBe('tagged');
  });

  it('reports turns, detector candidates and tool call events to onEvent', async () => {
    const types: string[] = [];
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'done' }],
    });
    await agentLoop({ task: 't', model, tools, onEvent: (event) => types.push(event.type) });
    expect(types[0]).toBe('turn_started');
    expect(types).toContain('candidate_promoted');
    expect(types).toContain('tool_call');
    expect(types.filter((type) => type === 'turn_finished')).toHaveLength(2);
  });
});

describe('agentLoop: options', () => {
  const model = createScriptedModel({ turns: [] });
  it.each([
    [{ task: '' }, 'task'],
    [{ model: {} }, 'model'],
    [{ tools: [] }, 'tools'],
    [{ maxIterations: 0 }, 'maxIterations'],
    [{ maxModelRetries: -1 }, 'maxModelRetries'],
    [{ retryDelayMs: Number.NaN }, 'retryDelayMs'],
    [{ toolCaller: 'x' }, 'toolCaller'],
  ])('refuses %j', async (bad, option) => {
    await expect(agentLoop({ task: 't', model, tools, ...(bad as object) })).rejects.toMatchObject({
      code: InvalidOptionError.CODE,
      option,
    });
  });
});
