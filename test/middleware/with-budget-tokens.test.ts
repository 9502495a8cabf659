import { describe, expect, it } from 'vitest';
import {
  agentLoop,
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
  InvalidOptionError,
  withBudget,
} from '../../src/index.js';
import { createScriptedModel } from '../../src/testing/index.js';

function countedTool(name: string, safety: { readOnly?: boolean; spend?: boolean }) {
  const ran: string[] = [];
  const tool = defineTool({
    name,
    description: name,
    inputSchema: { type: 'object' },
    safety,
    handler: (_args, runtime) => {
      ran.push(runtime.callId);
      return `${name} done`;
    },
  });
  return { tool, ran };
}

describe('withBudget: model tokens', () => {
  it('refuses, before it runs, a call whose share would take the run past maxTokens', async () => {
    const pay = countedTool('pay', { spend: true });
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'p1', name: 'pay', arguments: {} },
            { id: 'p2', name: 'pay', arguments: { again: true } },
          ],
          usage: { inputTokens: 80, outputTokens: 10 },
        },
        {
          toolCalls: [{ id: 'p3', name: 'pay', arguments: { third: true } }],
          usage: { inputTokens: 20, outputTokens: 0 },
        },
        { text: 'stopped' },
      ],
    });
    const run = await agentLoop({
      task: 'pay',
      model,
      tools: createToolRegistry([pay.tool]),
      toolCaller: withBudget({ maxTokens: 100 }),
    });
    expect(run.results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['p1', 'ok'],
      ['p2', 'ok'],
      ['p3', 'budget_exceeded'],
    ]);
    expect(pay.ran).toEqual(['p1', 'p2']);
    const refused = run.results[2]!;
    expect(refused.error).toBe(
      'the tool budget of this run is spent (90 of 100 model tokens; this call carries 20): answer with what you have',
    );
    expect(refused.audit?.layers).toEqual([
      expect.objectContaining({
        name: 'with_budget',
        status: 'blocked',
        scope: 'run',
        spentTokens: 90,
        maxTokens: 100,
      }),
    ]);
    expect(run.results[1]?.audit?.layers).toEqual([
      expect.objectContaining({ name: 'with_budget', status: 'ok', spentTokens: 90 }),
    ]);
  });

  it('keeps one tool to its own tokens while the others go on', async () => {
    const pay = countedTool('pay', { spend: true });
    const ship = countedTool('ship', { spend: true });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([pay.tool, ship.tool]),
      caller: withBudget({ perTool: { pay: { maxTokens: 10 } } }),
    });
    const results = await dispatchTurn(
      [
        { id: 'p1', name: 'pay', arguments: {} },
        { id: 'p2', name: 'pay', arguments: {} },
        { id: 's1', name: 'ship', arguments: {} },
        { id: 's2', name: 'ship', arguments: {} },
      ],
      { dispatcher, modelUsage: { inputTokens: 24, outputTokens: 0 } },
    );
    expect(results.map((result) => result.status)).toEqual(['ok', 'budget_exceeded', 'ok', 'ok']);
    expect(results[1]?.error).toBe(
      'the pay budget is spent (6 of 10 model tokens; this call carries 6): answer with what you have',
    );
    expect(pay.ran).toEqual(['p1']);
    expect(ship.ran).toEqual(['s1', 's2']);
  });

  it('counts tokens as calls enter, so calls dispatched together cannot pass the budget', async () => {
    const pay = countedTool('pay', { spend: true });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([pay.tool]),
      caller: withBudget({ maxTokens: 50 }),
    });
    const calls = ['a', 'b', 'c'].map((id) => ({ id, name: 'pay', arguments: {} }));
    const results = await dispatchTurn(calls, {
      dispatcher,
      maxConcurrentTools: 3,
      modelUsage: { inputTokens: 60, outputTokens: 0 },
    });
    expect(results.map((result) => result.status)).toEqual(['ok', 'ok', 'budget_exceeded']);
    expect(pay.ran).toEqual(['a', 'b']);
  });

  it('counts calls without a share as zero, until the budget is spent', async () => {
    const look = countedTool('look', { readOnly: true });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([look.tool]),
      caller: withBudget({ maxTokens: 10 }),
    });
    const first = await dispatcher.dispatch({ id: 'l1', name: 'look', arguments: {} });
    expect(first.status).toBe('ok');
    const spent = await dispatchTurn([{ id: 'l2', name: 'look', arguments: {} }], {
      dispatcher,
      modelUsage: { inputTokens: 10, outputTokens: 0 },
    });
    expect(spent[0]?.status).toBe('ok');
    const after = await dispatcher.dispatch({ id: 'l3', name: 'look', arguments: {} });
    expect(after.status).toBe('budget_exceeded');
    expect(after.error).toBe(
      'the tool budget of this run is spent (10 of 10 model tokens): answer with what you have',
    );
  });

  it('refuses a token budget that is not a whole number of tokens', () => {
    expect(() => withBudget({ maxTokens: 1.5 })).toThrow(InvalidOptionError);
    expect(() => withBudget({ perTool: { pay: { maxTokens: -1 } } })).toThrow(InvalidOptionError);
  });
});
