import { describe, expect, it } from 'vitest';
import { parseBatchLine } from '../src/batch-file.js';
import { MAX_LINE_CHARS } from '../src/read-line-batches.js';

describe('parseBatchLine', () => {
  it('reads our, OpenAI Chat, OpenAI Responses and Anthropic turn shapes', () => {
    const shapes = [
      '{"calls":[{"id":"1","name":"add","arguments":"{}"}]}',
      '[{"id":"1","name":"add","arguments":"{}"}]',
      '{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"add","arguments":"{}"}}]}',
      '{"output":[{"type":"message"},{"type":"function_call","call_id":"1","name":"add","arguments":"{}"}]}',
      '{"role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"1","name":"add","input":{}}]}',
    ];
    for (const text of shapes) {
      const turn = parseBatchLine(text, 7);
      expect('calls' in turn && turn.calls.map((call) => [call.id, call.name]), text).toEqual([
        ['1', 'add'],
      ]);
    }
  });

  it('keeps an object that is not a well-formed call as a nameless call, so it still yields a result', () => {
    const turn = parseBatchLine('[{"id":"1","name":"add","arguments":"{}"}, {"id":"2"}]', 1);
    expect('calls' in turn && turn.calls).toEqual([
      { id: '1', name: 'add', arguments: '{}' },
      { name: '', arguments: null },
    ]);
  });

  it.each(['[1,2,3]', '[{"name":"add"}, null]', '{"calls":["add"]}'])(
    'refuses %s: a call that is not an object makes the line unreadable',
    (text) => {
      expect(parseBatchLine(text, 5)).toMatchObject({
        line: 5,
        error: expect.stringMatching(/^line 5: call \d+ is not an object/),
      });
    },
  );

  it('reports unreadable lines with their number', () => {
    expect(parseBatchLine('{"calls": [', 3)).toMatchObject({
      line: 3,
      error: expect.stringContaining('line 3 is not valid JSON'),
    });
    expect(parseBatchLine('{"hello": 1}', 4)).toMatchObject({
      line: 4,
      error: expect.stringContaining('holds no tool calls'),
    });
  });

  it('reports a line of any depth, or past the length limit, as one error', () => {
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(parseBatchLine(nested, 1)).toEqual({
      line: 1,
      error: 'line 1: call 1 is not an object (an array)',
    });
    expect(parseBatchLine(`[${'1,'.repeat(10)}${nested}]`, 2)).toMatchObject({
      error: 'line 2: call 1 is not an object (1)',
    });
    expect(parseBatchLine(' '.repeat(MAX_LINE_CHARS + 1), 3)).toEqual({
      line: 3,
      error: `line 3 is longer than ${MAX_LINE_CHARS} characters`,
    });
  });
});
