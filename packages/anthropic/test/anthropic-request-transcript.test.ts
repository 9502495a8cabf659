import type { TranscriptMessage } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { sentBody } from './request-fixture.js';
import { providerRegistry } from './support.js';
import './wire-server-fixture.js';

describe('createAnthropicModel on the wire: the request', () => {
  it('replays a transcript: tool_use blocks pair with tool_result blocks, errors flagged, hosted calls left out', async () => {
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Read a.md and stat b.md' },
      {
        role: 'assistant',
        text: 'Reading both.',
        toolCalls: [
          { id: 'toolu_1', name: 'read', argumentsText: '{"path":"a.md"}' },
          {
            id: 'srvtoolu_1',
            name: 'web_search',
            argumentsText: '{"query":"b.md"}',
            providerNative: true,
          },
          // Retracted as invalid_json: replayed with {} so that its tool_result still pairs.
          { id: 'toolu_2', name: 'fs_stat', argumentsText: '{"path": "b.md' },
          { id: 'toolu_3', name: 'search', argumentsText: '' },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'toolu_1', toolName: 'read', content: '# A', isError: false },
          { toolCallId: 'toolu_2', toolName: 'fs.stat', content: 'not valid JSON', isError: true },
          { toolCallId: 'toolu_3', toolName: 'search', content: 'no hits', isError: false },
        ],
      },
    ];
    const body = await sentBody({
      messages: transcript,
      tools: providerRegistry().modelDefinitions(),
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read a.md and stat b.md' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.md' } },
          { type: 'tool_use', id: 'toolu_2', name: 'fs_stat', input: {} },
          { type: 'tool_use', id: 'toolu_3', name: 'search', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '# A', is_error: false },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: 'not valid JSON',
            is_error: true,
          },
          { type: 'tool_result', tool_use_id: 'toolu_3', content: 'no hits', is_error: false },
        ],
      },
    ]);
  });

  it('merges consecutive messages of one role so turns alternate, tool results first', async () => {
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Search for tides.' },
      { role: 'user', text: 'Then read the first hit.' },
      // Only a hosted call and no text: nothing of it can be replayed, so it disappears.
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'srvtoolu_1', name: 'web_search', argumentsText: '{}', providerNative: true },
        ],
      },
      { role: 'user', text: 'Go on.' },
      {
        role: 'assistant',
        text: 'Searching.',
        toolCalls: [{ id: 'toolu_1', name: 'search', argumentsText: '{}' }],
      },
      { role: 'assistant', text: 'And reading.', toolCalls: [] },
      { role: 'user', text: 'Also this: ' },
      {
        role: 'tool',
        results: [{ toolCallId: 'toolu_1', toolName: 'search', content: 'hit', isError: false }],
      },
      { role: 'user', text: '' },
    ];
    const body = await sentBody({ messages: transcript, tools: [] });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Search for tides.' },
          { type: 'text', text: 'Then read the first hit.' },
          { type: 'text', text: 'Go on.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'tool_use', id: 'toolu_1', name: 'search', input: {} },
          { type: 'text', text: 'And reading.' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hit', is_error: false },
          { type: 'text', text: 'Also this: ' },
        ],
      },
    ]);
  });

  it('replays an assistant message its own provider recorded verbatim, and ignores the record of another provider', async () => {
    const recorded = [
      { type: 'thinking', thinking: 'Hm.', signature: 'sig' },
      { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'tides' } },
    ];
    const transcript: TranscriptMessage[] = [
      { role: 'user', text: 'Search.' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'toolu_1', name: 'search', argumentsText: '{"q":"tides"}' }],
        providerContent: { provider: 'anthropic', content: recorded },
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'toolu_1', toolName: 'search', content: 'hit', isError: false }],
      },
      {
        role: 'assistant',
        text: 'Done.',
        toolCalls: [],
        providerContent: { provider: 'openai', content: [{ type: 'reasoning' }] },
      },
    ];
    const body = await sentBody({ messages: transcript, tools: [] });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Search.' }] },
      { role: 'assistant', content: recorded },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hit', is_error: false }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });
});
