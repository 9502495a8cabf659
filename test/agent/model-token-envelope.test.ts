import { describe, expect, it } from 'vitest';
import {
  agentLoop,
  createToolRegistry,
  type ModelTokens,
  type ToolCaller,
} from '../../src/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { lookupTool as lookup, payTool as pay } from '../support/eager-and-held-tools.js';

/** A layer that keeps the share each call carried into the middleware. */
function shareRecorder(): { caller: ToolCaller; shares: Map<string, ModelTokens | undefined> } {
  const shares = new Map<string, ModelTokens | undefined>();
  return {
    shares,
    caller: (call, next) => {
      shares.set(call.callId, call.modelTokens);
      return next(call);
    },
  };
}

describe('agentLoop: each held call carries its share of the turn’s tokens into the middleware', () => {
  it('gives held calls the share their results get, and eager calls none', async () => {
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'l0', name: 'lookup', arguments: { q: 'rates' } },
            { id: 'p1', name: 'pay', arguments: { amount: 1 } },
            { id: 'p2', name: 'pay', arguments: { amount: 2 } },
          ],
          usage: { inputTokens: 91, outputTokens: 11 },
        },
        { text: 'done', usage: { inputTokens: 150, outputTokens: 3 } },
      ],
    });
    const recorder = shareRecorder();
    const run = await agentLoop({
      task: 'pay twice',
      model,
      tools: createToolRegistry([lookup, pay]),
      toolCaller: recorder.caller,
    });
    expect(run.status).toBe('completed');
    expect([...recorder.shares]).toEqual([
      ['l0', undefined],
      ['p1', { inputTokens: 30, outputTokens: 4 }],
      ['p2', { inputTokens: 30, outputTokens: 3 }],
    ]);
    for (const result of run.results) {
      const share = recorder.shares.get(result.toolCallId);
      if (share === undefined) continue;
      expect([result.usage?.modelInputTokens, result.usage?.modelOutputTokens]).toEqual([
        share.inputTokens,
        share.outputTokens,
      ]);
    }
    expect(run.results[0]?.usage).toMatchObject({ modelInputTokens: 31, modelOutputTokens: 4 });
  });

  it('gives every call a share when nothing starts early', async () => {
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'l0', name: 'lookup', arguments: { q: 'rates' } },
            { id: 'p1', name: 'pay', arguments: { amount: 1 } },
          ],
          usage: { inputTokens: 9, outputTokens: 5 },
        },
        { text: 'done' },
      ],
    });
    const recorder = shareRecorder();
    const run = await agentLoop({
      task: 'pay',
      model,
      tools: createToolRegistry([lookup, pay]),
      toolCaller: recorder.caller,
      eager: false,
    });
    expect([...recorder.shares]).toEqual([
      ['l0', { inputTokens: 5, outputTokens: 3 }],
      ['p1', { inputTokens: 4, outputTokens: 2 }],
    ]);
    expect(run.results.map((result) => result.usage?.modelTokens)).toEqual([8, 6]);
  });

  it('gives no share when the provider reported no usage', async () => {
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 1 } }] }, { text: 'ok' }],
    });
    const recorder = shareRecorder();
    await agentLoop({
      task: 'pay',
      model,
      tools: createToolRegistry([pay]),
      toolCaller: recorder.caller,
    });
    expect([...recorder.shares]).toEqual([['p1', undefined]]);
  });
});
