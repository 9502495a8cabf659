import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  InvalidOptionError,
  type ModelTokens,
  streamTurn,
} from '../../src/index.js';
import { recordingTool } from '../../src/testing/index.js';

function recordingDispatcher() {
  const shares: [string, ModelTokens | undefined][] = [];
  const dispatcher = createDispatcher({
    registry: createToolRegistry([recordingTool({ name: 'note' }).tool]),
    caller: (call, next) => {
      shares.push([call.callId, call.modelTokens]);
      return next(call);
    },
  });
  return { dispatcher, shares };
}

const calls = [
  { id: 'a', name: 'note', arguments: {} },
  { id: 'b', name: 'note', arguments: {} },
  { id: 'c', name: 'missing_tool', arguments: {} },
];

describe('dispatchTurn: modelUsage', () => {
  it('hands every call its share of the turn’s tokens, the first calls taking the remainder', async () => {
    const { dispatcher, shares } = recordingDispatcher();
    const results = await dispatchTurn(calls, {
      dispatcher,
      modelUsage: { inputTokens: 100, outputTokens: 8 },
    });
    expect(results).toHaveLength(3);
    expect(shares).toEqual([
      ['a', { inputTokens: 34, outputTokens: 3 }],
      ['b', { inputTokens: 33, outputTokens: 3 }],
      ['c', { inputTokens: 33, outputTokens: 2 }],
    ]);
  });

  it('hands none without it', async () => {
    const { dispatcher, shares } = recordingDispatcher();
    await dispatchTurn(calls, { dispatcher });
    expect(shares.map(([, share]) => share)).toEqual([undefined, undefined, undefined]);
  });

  it('does the same for streamTurn', async () => {
    const { dispatcher, shares } = recordingDispatcher();
    for await (const _result of streamTurn(calls.slice(0, 2), {
      dispatcher,
      modelUsage: { inputTokens: 3, outputTokens: 1 },
    })) {
      // drained
    }
    expect(shares).toEqual([
      ['a', { inputTokens: 2, outputTokens: 1 }],
      ['b', { inputTokens: 1, outputTokens: 0 }],
    ]);
  });

  it('refuses modelUsage with calls that are not an array, and bad token counts, running nothing', async () => {
    const { dispatcher, shares } = recordingDispatcher();
    function* generated() {
      yield* calls;
    }
    await expect(
      dispatchTurn(generated(), { dispatcher, modelUsage: { inputTokens: 1, outputTokens: 1 } }),
    ).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(
      dispatchTurn(calls, { dispatcher, modelUsage: { inputTokens: -1, outputTokens: 1 } }),
    ).rejects.toBeInstanceOf(InvalidOptionError);
    expect(shares).toEqual([]);
  });
});
