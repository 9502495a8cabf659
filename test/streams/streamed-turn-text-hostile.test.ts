import { describe, expect, it } from 'vitest';
import { createDispatcher, createToolRegistry, dispatchStreamedTurn } from '../../src/index.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import { recordingTool } from '../../src/testing/index.js';

async function* textDeltas(pieces: readonly string[]): AsyncIterable<ToolCallDelta> {
  for (const text of pieces) yield { type: 'text', text };
  yield { type: 'finish', reason: 'stop', safe: true };
}

describe('dispatchStreamedTurn in text mode with hostile call text', () => {
  it('settles a turn whose call nests its relaxed arguments 4,000 deep, one result per candidate', async () => {
    const look = recordingTool({ name: 'look', safety: { readOnly: true } });
    const dispatcher = createDispatcher({ registry: createToolRegistry([look.tool]) });
    const depth = 4_000;
    const call = `look({a: ${'['.repeat(depth)}${']'.repeat(depth)}})\n`;
    const turn = await dispatchStreamedTurn({
      dispatcher,
      toolCalling: 'text',
      deltas: textDeltas([
        'Looking.\n',
        call.slice(0, 5_000),
        call.slice(5_000),
        'look({ b: 1 })\n',
      ]),
    });
    expect(turn.outcome).toBe('completed');
    expect(turn.candidates.map((candidate) => candidate.type)).toEqual([
      'candidate_promoted',
      'candidate_promoted',
    ]);
    expect(turn.results).toHaveLength(2);
    expect(turn.results[1]?.status).toBe('ok');
  });

  it('retracts, never hangs on, a call whose deep literal is cut off by the end of the text', async () => {
    const look = recordingTool({ name: 'look', safety: { readOnly: true } });
    const dispatcher = createDispatcher({ registry: createToolRegistry([look.tool]) });
    const turn = await dispatchStreamedTurn({
      dispatcher,
      toolCalling: 'text',
      deltas: textDeltas([`look({a: ${'[{x: '.repeat(20_000)}`]),
    });
    expect(turn.candidates).toHaveLength(1);
    expect(turn.candidates[0]).toMatchObject({
      type: 'candidate_retracted',
      errorCategory: 'parse_aborted',
    });
    expect(turn.results).toEqual([]);
  });
});
