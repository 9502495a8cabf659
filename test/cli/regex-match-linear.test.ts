import { describe, expect, it } from 'vitest';
import { regexMatchTool } from '../../src/cli/example-tools.js';
import { createDispatcher, createToolRegistry } from '../../src/index.js';

function dispatcher() {
  return createDispatcher({ registry: createToolRegistry([regexMatchTool]) });
}

describe('the built-in regex_match tool', () => {
  it('answers a catastrophic-backtracking pattern at once instead of stalling the thread', async () => {
    const started = performance.now();
    const result = await dispatcher().dispatch({
      id: 'redos',
      name: 'regex_match',
      arguments: { pattern: '^(a+)+$', text: `${'a'.repeat(32)}!` },
    });
    expect(result.status).toBe('ok');
    expect(result.result).toEqual({ matches: [], groups: [] });
    // A backtracking engine needs 2^32 steps here; the linear engine needs about 33.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('keeps flags and JavaScript-style named groups', async () => {
    const result = await dispatcher().dispatch({
      id: 'named',
      name: 'regex_match',
      arguments: { pattern: '(?<word>[a-z]+)-\\d', text: 'AB-1 cd-2', flags: 'i' },
    });
    expect(result.result).toEqual({
      matches: ['AB-1', 'cd-2'],
      groups: [{ word: 'AB' }, { word: 'cd' }],
    });
  });

  it('reports a pattern outside RE2 syntax as a tool error', async () => {
    const result = await dispatcher().dispatch({
      id: 'backref',
      name: 'regex_match',
      arguments: { pattern: '(a)\\1', text: 'aa' },
    });
    expect(result.ok).toBe(false);
    expect(result.errorCategory).toBe('tool_error');
    expect(result.error).toContain('invalid regular expression');
  });
});
