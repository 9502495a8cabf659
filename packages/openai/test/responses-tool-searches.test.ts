import { describe, expect, it } from 'vitest';
import { responsesToolSearches } from '../src/responses-tool-searches.js';

const fn = (name: string) => ({ type: 'function', name, parameters: {}, defer_loading: true });

describe('responsesToolSearches', () => {
  it('pairs server searches with their outputs, functions in namespaces included', () => {
    const content = [
      { type: 'reasoning', id: 'r1', summary: [] },
      {
        type: 'tool_search_call',
        id: 't1',
        call_id: 'c1',
        execution: 'server',
        arguments: '{"query":"crm"}',
      },
      {
        type: 'tool_search_output',
        id: 'o1',
        call_id: 'c1',
        execution: 'server',
        tools: [fn('send_email'), { type: 'namespace', name: 'crm', tools: [fn('crm_lookup')] }],
      },
      {
        type: 'tool_search_call',
        id: 't2',
        call_id: 'c2',
        execution: 'server',
        arguments: 'plain words',
      },
      { type: 'tool_search_call', id: 't3', call_id: 'c3', execution: 'client', arguments: {} },
    ];
    expect(responsesToolSearches({ provider: 'openai-responses', content })).toEqual([
      { toolCallId: 'c1', name: 'tool_search', query: 'crm', loaded: ['send_email', 'crm_lookup'] },
      { toolCallId: 'c2', name: 'tool_search', query: 'plain words', loaded: [] },
    ]);
  });

  it('reads nothing from another provider or a malformed record', () => {
    expect(responsesToolSearches({ provider: 'anthropic', content: [] })).toEqual([]);
    expect(responsesToolSearches({ provider: 'openai-responses', content: 'x' })).toEqual([]);
  });
});
