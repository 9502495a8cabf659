import type { Anthropic } from '@anthropic-ai/sdk';
import { ModelError } from 'switchyard';
import type { ToolCallDelta } from 'switchyard/streams';
import { describe, expect, it } from 'vitest';
import {
  blockFrames,
  messageDelta,
  messageStart,
  messageStop,
  messageStream,
  type SseFrame,
} from '../../../test/support/anthropic-wire-frames.js';
import { AnthropicDeltaTranslator } from '../src/anthropic-delta-translator.js';
import { isSafeAnthropicStop } from '../src/anthropic-stop-reasons.js';

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

/** The deltas each frame yields, one array per frame, as the SDK would hand the frames over. */
function translate(frames: readonly SseFrame[], translator = new AnthropicDeltaTranslator()) {
  return frames.map((frame) => translator.push(frame.data as StreamEvent));
}

const read = (id: string, jsonPieces: string[]) => ({ toolUse: { id, name: 'read', jsonPieces } });

describe('AnthropicDeltaTranslator', () => {
  it('turns text and tool_use blocks into text and call deltas keyed by block index', () => {
    const translator = new AnthropicDeltaTranslator();
    const deltas = translate(
      messageStream([{ text: ['Let me ', 'look.'] }, read('toolu_1', ['', '{"path":', '"a.md"}'])]),
      translator,
    ).flat();
    expect(deltas).toEqual([
      { type: 'text', text: 'Let me ' },
      { type: 'text', text: 'look.' },
      { type: 'call_start', key: '1', id: 'toolu_1', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '{"path":' },
      { type: 'call_arguments', key: '1', fragment: '"a.md"}' },
      { type: 'call_end', key: '1' },
      { type: 'usage', inputTokens: 10, outputTokens: 20 },
      { type: 'finish', reason: 'tool_use', safe: true },
    ]);
    expect(translator.end()).toEqual([]);
  });

  it('holds a call_end until the next block opens, so a finished call is released before it', () => {
    const frames = [
      messageStart(),
      ...blockFrames(0, read('toolu_1', ['{}'])),
      ...blockFrames(1, read('toolu_2', ['{}'])),
    ];
    const perFrame = translate(frames);
    // content_block_stop of block 0 yields nothing; content_block_start of block 1 releases it.
    expect(perFrame[3]).toEqual([]);
    expect(perFrame[4]).toEqual([
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'toolu_2', name: 'read' },
    ]);
  });

  it('releases the last call_end at a safe message_delta, before message_stop', () => {
    const perFrame = translate([
      messageStart(),
      ...blockFrames(0, read('toolu_1', ['{}'])),
      messageDelta('end_turn'),
      messageStop(),
    ]);
    expect(perFrame[4]).toEqual([{ type: 'call_end', key: '0' }]);
    expect(perFrame[5]).toEqual([
      { type: 'usage', inputTokens: 10, outputTokens: 20 },
      { type: 'finish', reason: 'end_turn', safe: true },
    ]);
  });

  it('never closes the last call when the stop reason may have cut it (max_tokens)', () => {
    const deltas = translate(
      messageStream([read('toolu_1', ['{"path": "a.md"}'])], { stopReason: 'max_tokens' }),
    ).flat();
    expect(deltas.filter((delta) => delta.type === 'call_end')).toEqual([]);
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'max_tokens', safe: false });
  });

  it('marks server_tool_use blocks providerNative and sends an input given whole at the start', () => {
    const deltas = translate(
      messageStream([
        { serverToolUse: { id: 'srvtoolu_1', name: 'web_search', input: { query: 'tides' } } },
        { block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] } },
        { text: 'Found it.' },
      ]),
    ).flat();
    expect(deltas.slice(0, 3)).toEqual([
      { type: 'call_start', key: '0', id: 'srvtoolu_1', name: 'web_search', providerNative: true },
      { type: 'call_end', key: '0', arguments: '{"query":"tides"}' },
      { type: 'text', text: 'Found it.' },
    ]);
  });

  it('reports cumulative usage once, counting cached input tokens as input', () => {
    const start = messageStart({ inputTokens: 7 });
    (start.data as { message: { usage: object } }).message.usage = {
      input_tokens: 7,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
      output_tokens: 1,
    };
    const delta = messageDelta('end_turn', 42);
    (delta.data as { usage: object }).usage = { output_tokens: 42, input_tokens: null };
    const deltas = translate([start, delta, messageStop()]).flat();
    expect(deltas.filter((item) => item.type === 'usage')).toEqual([
      { type: 'usage', inputTokens: 1107, outputTokens: 42 },
    ]);
  });

  it('finishes at the end of the stream when message_stop never came after the stop reason', () => {
    const translator = new AnthropicDeltaTranslator();
    translate([messageStart(), messageDelta('end_turn')], translator);
    expect(translator.end()).toEqual([
      { type: 'usage', inputTokens: 10, outputTokens: 20 },
      { type: 'finish', reason: 'end_turn', safe: true },
    ]);
  });

  it('throws a retryable transient_network ModelError when the stream ends before a stop reason', () => {
    const translator = new AnthropicDeltaTranslator();
    translate(
      [messageStart(), ...blockFrames(0, read('toolu_1', ['{"pa']), { close: false })],
      translator,
    );
    let thrown: unknown;
    try {
      translator.end();
    } catch (error) {
      thrown = error;
    }
    expect(ModelError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      provider: 'anthropic',
      category: 'transient_network',
      retryable: true,
    });
    expect(translator.end()).toEqual([]);
  });

  it('skips events it does not know and everything after message_stop', () => {
    const translator = new AnthropicDeltaTranslator();
    const unknown = { type: 'content_block_citation', index: 0 } as unknown as StreamEvent;
    expect(translator.push(unknown)).toEqual([]);
    translate([messageStart(), messageDelta('end_turn'), messageStop()], translator);
    const late: ToolCallDelta[] = translate(blockFrames(0, { text: 'late' })).flat();
    expect(late).toEqual([{ type: 'text', text: 'late' }]);
    expect(translate(blockFrames(0, { text: 'late' }), translator).flat()).toEqual([]);
  });

  it('finishes unsafely with reason unknown when message_stop arrives without a stop reason', () => {
    const deltas = translate([
      messageStart(),
      ...blockFrames(0, read('toolu_1', ['{}'])),
      messageStop(),
    ]).flat();
    expect(deltas.filter((delta) => delta.type === 'call_end')).toEqual([]);
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'unknown', safe: false });
  });
});

describe('isSafeAnthropicStop', () => {
  it.each(['tool_use', 'end_turn', 'stop_sequence', 'pause_turn'])(
    '%s ends a message whole',
    (reason) => {
      expect(isSafeAnthropicStop(reason)).toBe(true);
    },
  );

  it.each(['max_tokens', 'refusal', 'model_context_window_exceeded', 'something_new'])(
    '%s may have cut the output',
    (reason) => {
      expect(isSafeAnthropicStop(reason)).toBe(false);
    },
  );

  it('records thinking, signatures and citations whole, for a turn that must go back verbatim', () => {
    const frames: SseFrame[] = [
      messageStart(),
      ...blockFrames(
        0,
        { block: { type: 'thinking', thinking: '', signature: '' } },
        { close: false },
      ),
      frame({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Let me ' },
      }),
      frame({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'think.' },
      }),
      frame({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'sig' },
      }),
      frame({ type: 'content_block_stop', index: 0 }),
      ...blockFrames(1, { text: ['It is ', 'so.'] }, { close: false }),
      frame({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'citations_delta', citation: citation },
      }),
      frame({ type: 'content_block_stop', index: 1 }),
      messageDelta('end_turn', 5),
      messageStop(),
    ];

    const deltas = translate(frames).flat();

    expect(deltas.find((delta) => delta.type === 'provider_content')).toEqual({
      type: 'provider_content',
      content: {
        provider: 'anthropic',
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: 'sig' },
          expect.objectContaining({ type: 'text', text: 'It is so.', citations: [citation] }),
        ],
      },
    });
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'end_turn', safe: true });
  });

  it('marks a pause_turn finish paused, with the blocks to send back', () => {
    const deltas = translate(
      messageStream([{ text: 'Searching.' }], { stopReason: 'pause_turn' }),
    ).flat();

    expect(deltas.slice(-2)).toEqual([
      {
        type: 'provider_content',
        content: {
          provider: 'anthropic',
          content: [expect.objectContaining({ type: 'text', text: 'Searching.' })],
        },
      },
      { type: 'finish', reason: 'pause_turn', safe: true, paused: true },
    ]);
  });

  it('records nothing for text and client tool calls, which the transcript rebuilds', () => {
    const deltas = translate(messageStream([{ text: 'Hi.' }, read('toolu_1', ['{}'])])).flat();

    expect(deltas.some((delta) => delta.type === 'provider_content')).toBe(false);
  });

  it('records nothing for a turn cut off by max_tokens: it is retracted, not replayed', () => {
    const frames = messageStream([{ block: { type: 'thinking', thinking: 'x', signature: 's' } }], {
      stopReason: 'max_tokens',
    });

    expect(
      translate(frames)
        .flat()
        .some((delta) => delta.type === 'provider_content'),
    ).toBe(false);
  });
});

const citation = {
  type: 'char_location',
  cited_text: 'so',
  document_index: 0,
  document_title: null,
  start_char_index: 0,
  end_char_index: 2,
};

function frame(data: Record<string, unknown>): SseFrame {
  return { event: String(data.type), data };
}
