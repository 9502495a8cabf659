import type { ToolCallDelta } from 'switchyard/streams';
import { describe, expect, it } from 'vitest';
import {
  computerCallItem,
  RESPONSES_PATH,
  ResponsesScript,
  responsesToolCallStream,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIResponsesModel } from '../src/index.js';
import { responsesModel as model, registry, request } from './model-fixture.js';
import { collect, detect } from './support.js';
import { server } from './wire-server-fixture.js';

const webSearchItem = {
  type: 'web_search_call',
  id: 'ws_1',
  status: 'completed',
  action: { type: 'search', query: 'switchyard' },
};

describe('createOpenAIResponsesModel streaming', () => {
  it('turns function call items into deltas keyed by item id, with call_id as the call id', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream(
        [
          { itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"pa', 'th": "a.md"}'] },
          { itemId: 'fc_2', id: 'call_b', name: 'fs_stat', arguments: ['{"path": "b.md"}'] },
        ],
        { text: 'Looking.', end: { status: 'completed', usage: { input: 7, output: 9 } } },
      ),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas).toEqual<ToolCallDelta[]>([
      { type: 'text', text: 'Looking.' },
      { type: 'call_start', key: 'fc_1', id: 'call_a', name: 'read' },
      { type: 'call_arguments', key: 'fc_1', fragment: '{"pa' },
      { type: 'call_arguments', key: 'fc_1', fragment: 'th": "a.md"}' },
      { type: 'call_end', key: 'fc_1', arguments: '{"path": "a.md"}' },
      { type: 'call_start', key: 'fc_2', id: 'call_b', name: 'fs_stat' },
      { type: 'call_arguments', key: 'fc_2', fragment: '{"path": "b.md"}' },
      { type: 'call_end', key: 'fc_2', arguments: '{"path": "b.md"}' },
      { type: 'usage', inputTokens: 7, outputTokens: 9 },
      { type: 'finish', reason: 'completed', safe: true },
    ]);
    const promoted = detect(deltas, registry).filter(
      (event) => event.type === 'candidate_promoted',
    );
    expect(promoted.map(({ call, emitOrder }) => ({ call, emitOrder }))).toEqual([
      { call: { id: 'call_a', name: 'read', arguments: { path: 'a.md' } }, emitOrder: 0 },
      { call: { id: 'call_b', name: 'fs.stat', arguments: { path: 'b.md' } }, emitOrder: 1 },
    ]);
  });

  it('reports a hosted tool item as a provider-native call carrying the item, never promoted', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream(
        [{ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"path": "a.md"}'] }],
        { hosted: [webSearchItem] },
      ),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas.slice(0, 2)).toEqual([
      {
        type: 'call_start',
        key: 'ws_1',
        id: 'ws_1',
        name: 'web_search_call',
        providerNative: true,
      },
      { type: 'call_end', key: 'ws_1', arguments: JSON.stringify(webSearchItem) },
    ]);
    const events = detect(deltas, registry);
    expect(events.find((event) => event.type === 'provider_native_call')).toEqual({
      type: 'provider_native_call',
      toolCallId: 'ws_1',
      toolName: 'web_search_call',
      source: 'native',
      rawInput: JSON.stringify(webSearchItem),
      input: webSearchItem,
    });
    const promoted = events.filter((event) => event.type === 'candidate_promoted');
    expect(promoted.map((event) => [event.toolCallId, event.emitOrder])).toEqual([['call_a', 0]]);
  });

  it('treats an item that waits for the client as an ordinary call, refused as an unknown tool', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream([], { hosted: [computerCallItem] }),
    });

    const events = detect(await collect(model().stream(request())), registry);

    // Promoted under its own name: the dispatcher answers it `tool_not_found`, an error result
    // that tells the model no one ran it.
    expect(events.some((event) => event.type === 'provider_native_call')).toBe(false);
    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'call_cu',
      toolName: 'computer_call',
    });
  });

  it('records reasoning for replay, unless the request turned store off and it cannot be replayed', async () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
    const recorded = async (extraBody: Record<string, unknown>) => {
      server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([], { hosted: [reasoning] }) });
      const stored = createOpenAIResponsesModel({ model: 'm', client: server.client(), extraBody });
      const deltas = await collect(stored.stream(request()));
      return deltas.some((delta) => delta.type === 'provider_content');
    };

    expect(await recorded({})).toBe(true);
    expect(await recorded({ store: false })).toBe(false);
  });

  it('retracts a call cut off by response.incomplete, with the incomplete reason', async () => {
    const steps = responsesToolCallStream([], {
      end: { status: 'incomplete', reason: 'max_output_tokens', usage: { input: 5, output: 100 } },
    });
    const script = new ResponsesScript();
    script
      .event('response.output_item.added', {
        output_index: 0,
        item: {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_a',
          name: 'write',
          arguments: '',
          status: 'in_progress',
        },
      })
      .event('response.function_call_arguments.delta', {
        item_id: 'fc_1',
        output_index: 0,
        delta: '{"path": "a',
      });
    server.reply(RESPONSES_PATH, { sse: [steps[0]!, ...script.steps, ...steps.slice(1)] });

    const deltas = await collect(model().stream(request()));

    expect(deltas.slice(-2)).toEqual([
      { type: 'usage', inputTokens: 5, outputTokens: 100 },
      { type: 'finish', reason: 'max_output_tokens', safe: false },
    ]);
    expect(
      detect(deltas, registry).find((event) => event.type === 'candidate_retracted'),
    ).toMatchObject({
      toolCallId: 'call_a',
      reason: 'cut_off',
      rawInput: '{"path": "a',
    });
  });

  it('promotes whole calls with malformed arguments (as their text) and to unknown tools', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream([
        { itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"path": "a.md",}'] },
        { itemId: 'fc_2', id: 'call_b', name: 'rm', arguments: ['{}'] },
      ]),
    });

    const events = detect(await collect(model().stream(request())), registry);

    expect(events.filter((event) => event.type === 'candidate_retracted')).toEqual([]);
    const promoted = events.filter((event) => event.type === 'candidate_promoted');
    expect(
      promoted.map((event) => [event.toolCallId, event.call.name, event.call.arguments]),
    ).toEqual([
      ['call_a', 'read', '{"path": "a.md",}'],
      ['call_b', 'rm', {}],
    ]);
  });
});
