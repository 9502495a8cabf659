import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/agent/agent-loop.js';
import { createScriptedModel } from '../../src/testing/index.js';
import {
  hostileArguments,
  hostileSetup,
  oddString,
  toolName,
  within,
} from '../streams/hostile-call-arbitraries.js';

const scriptedCall = fc.record({
  name: toolName,
  arguments: fc.oneof(
    hostileArguments.filter((value): value is string => typeof value === 'string'),
    oddString.map((text) => `{"path":${JSON.stringify(text)}}`),
  ),
});

describe('agentLoop with a model that sends hostile calls', () => {
  it('settles every run with one result per promoted call, in planner order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(scriptedCall, { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 2,
        }),
        fc.constantFrom<'native' | 'text'>('native', 'text'),
        async (turns, toolCalling) => {
          const { registry } = hostileSetup();
          const model = createScriptedModel({
            toolCalling,
            fragmentChars: 512,
            turns: [...turns.map((toolCalls) => ({ toolCalls })), { text: 'done' }],
          });
          const promoted: string[] = [];
          const run = await within(
            agentLoop({
              task: 'fuzz',
              model,
              tools: registry,
              maxIterations: turns.length + 1,
              onEvent: (event) => {
                if (event.type === 'candidate_promoted') promoted.push(event.toolCallId);
              },
            }),
            5_000,
            'agentLoop',
          );
          expect(run.status).toBe('completed');
          expect(run.results.map((result) => result.toolCallId)).toEqual(promoted);
          for (const turn of run.turns) {
            expect(turn.results.map((result) => result.emitOrder)).toEqual(
              turn.results.map((_, index) => index),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
