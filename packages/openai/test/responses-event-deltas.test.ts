import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ModelError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  computerCallItem,
  functionCallItem,
  responseObject,
} from '../../../test/support/openai-wire-server.js';
import { thrownBy } from '../../../test/support/thrown-by.js';
import { responsesEventDeltas } from '../src/index.js';

function event(type: string, fields: Record<string, unknown> = {}): ResponseStreamEvent {
  return { type, sequence_number: 0, ...fields } as unknown as ResponseStreamEvent;
}

describe('responsesEventDeltas', () => {
  it('passes arguments sent whole on output_item.added as a fragment', () => {
    const item = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_a',
      name: 'read',
      arguments: '{}',
    };

    expect(
      responsesEventDeltas()(event('response.output_item.added', { output_index: 0, item })),
    ).toEqual([
      { type: 'call_start', key: 'fc_1', id: 'call_a', name: 'read' },
      { type: 'call_arguments', key: 'fc_1', fragment: '{}' },
    ]);
  });

  it('leaves a call the output limit cut off open, so the unsafe finish retracts it', () => {
    const translate = responsesEventDeltas();
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'write' };
    const deltas = [
      ...translate(
        event('response.output_item.added', { output_index: 0, item: { ...item, arguments: '' } }),
      ),
      ...translate(
        event('response.output_item.done', {
          output_index: 0,
          item: { ...item, arguments: '{"path": "a', status: 'incomplete' },
        }),
      ),
      ...translate(
        event('response.output_item.done', {
          output_index: 1,
          item: { ...item, id: 'fc_2', arguments: '{}', status: 'completed' },
        }),
      ),
    ];
    expect(deltas.filter((delta) => delta.type === 'call_end')).toEqual([
      { type: 'call_end', key: 'fc_2', arguments: '{}' },
    ]);
  });

  it('keys an item without an id by its output index, for its deltas and its end alike', () => {
    const translate = responsesEventDeltas();
    const item = { type: 'function_call', call_id: 'call_a', name: 'read', arguments: '' };

    const deltas = [
      event('response.output_item.added', { output_index: 3, item }),
      event('response.function_call_arguments.delta', { output_index: 3, delta: '{}' }),
      event('response.output_item.done', { output_index: 3, item: { ...item, arguments: '{}' } }),
    ].flatMap(translate);

    expect(deltas.map((delta) => ('key' in delta ? delta.key : undefined))).toEqual([
      'output_3',
      'output_3',
      'output_3',
    ]);
  });

  it('uses call_id as the id of a hosted item that has one', () => {
    const item = {
      type: 'tool_search_call',
      id: 'ts_1',
      call_id: 'call_ts',
      arguments: {},
      execution: 'server',
      status: 'in_progress',
    };

    expect(
      responsesEventDeltas()(event('response.output_item.added', { output_index: 0, item })),
    ).toEqual([
      {
        type: 'call_start',
        key: 'ts_1',
        id: 'call_ts',
        name: 'tool_search_call',
        providerNative: true,
      },
    ]);
  });

  it('opens an ordinary call for an item that waits for the client, so it is answered', () => {
    const item = computerCallItem;
    const translate = responsesEventDeltas();

    const deltas = [
      ...translate(event('response.output_item.added', { output_index: 0, item })),
      ...translate(event('response.output_item.done', { output_index: 0, item })),
    ];

    expect(deltas).toEqual([
      { type: 'call_start', key: 'cu_1', id: 'call_cu', name: 'computer_call' },
      { type: 'call_end', key: 'cu_1', arguments: JSON.stringify(item) },
    ]);
  });

  it('ignores message and reasoning items, and reads refusals as text', () => {
    const translate = responsesEventDeltas();

    const deltas = [
      event('response.output_item.added', {
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [] },
      }),
      event('response.output_item.done', {
        output_index: 0,
        item: { type: 'reasoning', id: 'rs_1', summary: [] },
      }),
      event('response.output_item.added', {
        output_index: 1,
        item: { type: 'message', id: 'msg_1', content: [] },
      }),
      event('response.refusal.delta', {
        item_id: 'msg_1',
        output_index: 1,
        content_index: 0,
        delta: 'No.',
      }),
      event('response.output_text.done', {
        item_id: 'msg_1',
        output_index: 1,
        content_index: 0,
        text: 'x',
      }),
    ].flatMap(translate);

    expect(deltas).toEqual([{ type: 'text', text: 'No.' }]);
  });

  it('finishes safely without usage when the completed response has none', () => {
    expect(
      responsesEventDeltas()(
        event('response.completed', { response: responseObject('completed') }),
      ),
    ).toEqual([{ type: 'finish', reason: 'completed', safe: true }]);
  });

  it('records the output of a completed response that holds reasoning or hosted items, to replay it', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
    const call = functionCallItem({ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: '{}' });
    const completed = (output: unknown[]) =>
      responsesEventDeltas()(
        event('response.completed', { response: responseObject('completed', output) }),
      );

    expect(completed([reasoning, call])).toEqual([
      {
        type: 'provider_content',
        content: { provider: 'openai-responses', content: [reasoning, call] },
      },
      { type: 'finish', reason: 'completed', safe: true },
    ]);
    // Text and function calls alone are rebuilt from the transcript; an item that waits for the
    // client would need its own kind of answer, so such a response is rebuilt too.
    expect(completed([call]).map((delta) => delta.type)).toEqual(['finish']);
    expect(completed([reasoning, computerCallItem]).map((delta) => delta.type)).toEqual(['finish']);
  });

  it('records unstored reasoning only when it carries its encrypted content', () => {
    const call = functionCallItem({ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: '{}' });
    const completed = (reasoning: Record<string, unknown>) =>
      responsesEventDeltas({ stored: false })(
        event('response.completed', {
          response: responseObject('completed', [reasoning, call]),
        }),
      ).map((delta) => delta.type);

    expect(completed({ type: 'reasoning', id: 'rs_1', summary: [] })).toEqual(['finish']);
    expect(
      completed({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA' }),
    ).toEqual(['provider_content', 'finish']);
  });

  it('finishes unsafely with reason incomplete when the response gives no details', () => {
    expect(
      responsesEventDeltas()(
        event('response.incomplete', { response: responseObject('incomplete') }),
      ),
    ).toEqual([{ type: 'finish', reason: 'incomplete', safe: false }]);
  });

  it('throws a ModelError for response.failed without an error object', () => {
    const error = thrownBy(() =>
      responsesEventDeltas()(event('response.failed', { response: responseObject('failed') })),
    );

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ provider: 'openai', category: 'generic', retryable: false });
  });
});
