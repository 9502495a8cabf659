import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/support/thrown-by.js';
import { parseBenchCases } from '../src/bench-case.js';

const tool = { name: 'f', description: 'd', inputSchema: { type: 'object', properties: {} } };
const line = (fields: object) =>
  JSON.stringify({ id: 'c1', intent: 'do it', tools: [tool], ...fields });

describe('parseBenchCases', () => {
  it('reads one case per line and skips blank lines', () => {
    const text = `${line({ expected: [{ name: 'f', arguments: {} }] })}\n\n`;
    const set = parseBenchCases(text, 'mine.jsonl');
    expect(set).toMatchObject({ source: 'mine.jsonl', excluded: [] });
    expect(set.cases[0]).toMatchObject({ id: 'c1', intent: 'do it', tools: [tool] });
  });

  it('leaves out cases with several expected calls or an expected tool it does not offer', () => {
    const two = line({
      expected: [
        { name: 'f', arguments: {} },
        { name: 'f', arguments: {} },
      ],
    });
    const stranger = line({ id: 'c2', expected: [{ name: 'g', arguments: {} }] });
    expect(parseBenchCases(`${two}\n${stranger}`).excluded).toEqual([
      { id: 'c1', reason: '2 expected calls (needs 1)' },
      { id: 'c2', reason: 'expected tool g is not among its tools' },
    ]);
  });

  it('throws InvalidOptionError naming the line of a broken case', () => {
    const broken = [
      'not json',
      JSON.stringify({ id: 1, intent: 'x' }),
      line({ expected: [{ name: 'f', arguments: { a: 'not a list' } }] }),
    ];
    for (const text of broken) {
      const error = thrownBy(() => parseBenchCases(`\n${text}`, 'bad.jsonl'));
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionError).option).toBe('data');
      expect((error as Error).message).toContain('bad.jsonl line 2');
    }
  });
});
