import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { type JournaledResult, journalPath, TaskJournal } from '../src/task-journal.js';

const result: JournaledResult = {
  ok: true,
  status: 'ok',
  result: 3,
  renderedResult: '3',
  observation: '3',
  error: null,
  errorCategory: null,
  executor: 'inline',
  executionDurationMs: 1,
};

function journalWithTwoCalls(hash: string): string {
  const path = journalPath(tempDir('switchyard-journal-'), 'task/1');
  const journal = new TaskJournal(path, hash);
  journal.write({ type: 'model_turn', index: 0, deltas: [{ type: 'text', text: 'hi' }] });
  journal.write({ type: 'call_started', key: 'add:x', callId: 'c1' });
  journal.write({ type: 'call_completed', key: 'add:x', callId: 'c1', result });
  journal.write({ type: 'call_started', key: 'pay:y', callId: 'c2' });
  journal.close();
  return path;
}

describe('TaskJournal', () => {
  it('reads back model turns and calls, completed or cut off, and ignores a torn last line', () => {
    const path = journalWithTwoCalls('A');
    expect(path.endsWith('task_1.jsonl')).toBe(true);
    appendFileSync(path, '{"type":"call_comp');
    const journal = new TaskJournal(path, 'A');
    expect(journal.resumed).toBe(true);
    expect(journal.modelTurns).toEqual([[{ type: 'text', text: 'hi' }]]);
    expect(journal.calls).toEqual([
      { key: 'add:x', callId: 'c1', result },
      { key: 'pay:y', callId: 'c2' },
    ]);
  });

  it('does not resume a journal written for a different task, and replaces it', () => {
    const path = journalWithTwoCalls('A');
    const journal = new TaskJournal(path, 'B');
    expect(journal.resumed).toBe(false);
    journal.write({ type: 'call_started', key: 'add:z', callId: 'c9' });
    journal.close();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toEqual([
      '{"type":"task","hash":"B"}',
      '{"type":"call_started","key":"add:z","callId":"c9"}',
    ]);
    expect(new TaskJournal(path, 'B').calls).toEqual([{ key: 'add:z', callId: 'c9' }]);
  });
});
