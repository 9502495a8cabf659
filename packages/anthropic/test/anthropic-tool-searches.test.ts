import { describe, expect, it } from 'vitest';
import { anthropicToolSearches } from '../src/anthropic-tool-searches.js';

describe('anthropicToolSearches', () => {
  it('pairs each tool search with its result and leaves other server tools out', () => {
    const content = [
      { type: 'server_tool_use', id: 'w1', name: 'web_search', input: { query: 'news' } },
      {
        type: 'server_tool_use',
        id: 's1',
        name: 'tool_search_tool_bm25',
        input: { query: 'mail' },
      },
      { type: 'server_tool_use', id: 's2', name: 'tool_search_tool_regex', input: { pattern: 1 } },
      {
        type: 'tool_search_tool_result',
        tool_use_id: 's1',
        content: {
          type: 'tool_search_tool_search_result',
          tool_references: [
            { type: 'tool_reference', tool_name: 'send_email' },
            { type: 'tool_reference', tool_name: 'read_email' },
          ],
        },
      },
    ];
    expect(anthropicToolSearches({ provider: 'anthropic', content })).toEqual([
      {
        toolCallId: 's1',
        name: 'tool_search_tool_bm25',
        query: 'mail',
        loaded: ['send_email', 'read_email'],
      },
      // No result yet (a paused turn), and an input that is not a query: kept as JSON.
      { toolCallId: 's2', name: 'tool_search_tool_regex', query: '{"pattern":1}', loaded: [] },
    ]);
  });

  it('reads nothing from another provider or a malformed record', () => {
    expect(anthropicToolSearches({ provider: 'openai-responses', content: [] })).toEqual([]);
    expect(anthropicToolSearches({ provider: 'anthropic', content: { blocks: [] } })).toEqual([]);
    expect(anthropicToolSearches({ provider: 'anthropic', content: [null, 3] })).toEqual([]);
  });
});
