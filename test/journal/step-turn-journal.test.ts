import { describe, expect, it } from 'vitest';
import { openRunJournal } from '../../src/journal/index.js';
import { stepTurnOptions } from '../../src/streams/step-options.js';
import { StepTurn } from '../../src/streams/step-turn.js';
import { freshStore, ledgerTools, proposed } from './support.js';

describe('a framework step with a journal', () => {
  it('answers a step run again in another process from the record, whatever the step count', async () => {
    const { store } = freshStore();
    const tools = ledgerTools();
    const step = async (iteration: number) => {
      const journal = await openRunJournal({ store, runId: 'thread-1' });
      const turn = new StepTurn(
        stepTurnOptions({ dispatcher: tools.dispatcher, journal }, iteration),
      );
      const result = await turn.dispatch(proposed('toolu_01', 'charge', { amount: 5 }));
      await journal.close();
      return result;
    };
    const first = await step(3);
    // The framework replays the step after an interrupt, in a new process that counts from 0.
    const replayed = await step(0);
    expect(tools.charge.callCount).toBe(1);
    expect(replayed).toMatchObject({
      ok: true,
      result: first.result,
      audit: { layers: [{ name: 'journal', status: 'replayed' }] },
    });
  });
});
