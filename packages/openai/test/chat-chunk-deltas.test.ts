import fc from 'fast-check';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { chatChunkDeltas } from '../src/index.js';
import { detect, openAITestRegistry } from './support.js';

function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finishReason: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl_1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

describe('chatChunkDeltas', () => {
  it('reads a refusal as text', () => {
    expect(chatChunkDeltas()(chunk({ refusal: "I can't help with that." }))).toEqual([
      { type: 'text', text: "I can't help with that." },
    ]);
  });

  it.each([
    ['stop', true],
    ['tool_calls', true],
    ['function_call', true],
    ['length', false],
    ['content_filter', false],
  ] as const)('marks finish_reason %s as safe: %s', (reason, safe) => {
    expect(chatChunkDeltas()(chunk({}, reason))).toEqual([{ type: 'finish', reason, safe }]);
  });

  it('treats an unknown finish reason as unsafe', () => {
    const odd = chunk({}, 'eos' as unknown as 'stop');

    expect(chatChunkDeltas()(odd)).toEqual([{ type: 'finish', reason: 'eos', safe: false }]);
  });

  it('opens a call sent whole in one chunk, and ignores the name repeated on later fragments', () => {
    const translate = chatChunkDeltas();

    const first = translate(
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'c1',
            type: 'function',
            function: { name: 'read', arguments: '{"path":' },
          },
        ],
      }),
    );
    const second = translate(
      chunk({
        tool_calls: [{ index: 0, id: 'c1', function: { name: 'read', arguments: '"a"}' } }],
      }),
    );

    expect([...first, ...second]).toEqual([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path":' },
      { type: 'call_arguments', key: '0', fragment: '"a"}' },
    ]);
  });

  it('closes a call when the next one opens, so it can start while the model writes on', () => {
    const translate = chatChunkDeltas();
    const open = (index: number, id: string) =>
      translate(
        chunk({
          tool_calls: [
            { index, id, type: 'function', function: { name: 'read', arguments: '{}' } },
          ],
        }),
      );
    expect([...open(0, 'c1'), ...open(1, 'c2'), ...translate(chunk({}, 'tool_calls'))]).toEqual([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{}' },
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'c2', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '{}' },
      { type: 'finish', reason: 'tool_calls', safe: true },
    ]);
  });

  it('leaves every call open until the finish with sequentialCalls: false', () => {
    const translate = chatChunkDeltas({ sequentialCalls: false });
    const deltas = [0, 1].flatMap((index) =>
      translate(
        chunk({
          tool_calls: [
            { index, id: `c${index}`, type: 'function', function: { name: 'read', arguments: '' } },
          ],
        }),
      ),
    );
    expect(deltas.filter((delta) => delta.type === 'call_end')).toEqual([]);
  });

  it('keys calls by their position when a server leaves out index', () => {
    const calls = [
      { id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } },
      { id: 'c2', type: 'function', function: { name: 'write', arguments: '{}' } },
    ] as unknown as ChatCompletionChunk.Choice.Delta.ToolCall[];

    const starts = chatChunkDeltas()(chunk({ tool_calls: calls })).filter(
      (delta) => delta.type === 'call_start',
    );

    expect(starts.map((delta) => delta.key)).toEqual(['0', '1']);
  });

  it('opens a call without an id so the detector generates one', () => {
    expect(
      chatChunkDeltas()(chunk({ tool_calls: [{ index: 2, function: { name: 'read' } }] })),
    ).toEqual([{ type: 'call_start', key: '2', name: 'read' }]);
  });

  it('reads usage from the final chunk and ignores a null one', () => {
    const translate = chatChunkDeltas();
    const withNull = { ...chunk({ content: 'x' }), usage: null };
    const usage: ChatCompletionChunk = {
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };

    expect([...translate(withNull), ...translate(usage)]).toEqual([
      { type: 'text', text: 'x' },
      { type: 'usage', inputTokens: 3, outputTokens: 4 },
    ]);
  });

  it('promotes the same calls however the argument text is split into chunks', () => {
    const registry = openAITestRegistry();
    const calls = [
      { id: 'call_a', name: 'read', text: '{"path": "a \\"quoted\\" name.md"}' },
      { id: 'call_b', name: 'fs_stat', text: '{"path": "ü/ß.md"}' },
    ];
    const cuts = fc.array(fc.nat(), { maxLength: 6 });

    fc.assert(
      fc.property(cuts, cuts, (cutsA, cutsB) => {
        const translate = chatChunkDeltas();
        const deltas = calls.flatMap((call, index) => [
          ...translate(
            chunk({
              tool_calls: [
                {
                  index,
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: '' },
                },
              ],
            }),
          ),
          ...split(call.text, index === 0 ? cutsA : cutsB).flatMap((piece) =>
            translate(chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
          ),
        ]);
        deltas.push(...translate(chunk({}, 'tool_calls')));

        const promoted = detect(deltas, registry).flatMap((event) =>
          event.type === 'candidate_promoted' ? [event.call] : [],
        );
        expect(promoted).toEqual([
          { id: 'call_a', name: 'read', arguments: { path: 'a "quoted" name.md' } },
          { id: 'call_b', name: 'fs.stat', arguments: { path: 'ü/ß.md' } },
        ]);
      }),
    );
  });
});

describe('chatChunkDeltas assembles a call as the SDK does when its name comes late', () => {
  /** What openai-node's own accumulator makes of these chunks: `[{id, name, arguments}]`. */
  async function sdkAssembled(chunks: readonly ChatCompletionChunk[]) {
    const lines = `${chunks.map((item) => JSON.stringify(item)).join('\n')}\n`;
    const stream = ChatCompletionStream.fromReadableStream(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(lines));
          controller.close();
        },
      }),
    );
    const completion = await stream.finalChatCompletion();
    return (completion.choices[0]?.message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('expected a function call');
      return {
        id: call.id,
        name: call.function.name,
        arguments: JSON.parse(call.function.arguments),
      };
    });
  }

  function promotedBy(chunks: readonly ChatCompletionChunk[]) {
    const translate = chatChunkDeltas();
    const events = detect(chunks.flatMap(translate), openAITestRegistry());
    expect(events.filter((event) => event.type === 'candidate_retracted')).toEqual([]);
    return events.flatMap((event) => (event.type === 'candidate_promoted' ? [event.call] : []));
  }

  it('promotes a call named only on its last fragment (openai-node ChatCompletionRunFunctions)', async () => {
    // The shape of openai-node's own test stream: every fragment carries the id and a piece of
    // the arguments; only the last one names the function, with finish_reason function_call.
    const pieces = ['{"path": ', '"a.md"', '}'];
    const chunks = pieces.map((piece, index) =>
      chunk(
        {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: '123',
              type: 'function',
              function: {
                arguments: piece,
                ...(index === pieces.length - 1 ? { name: 'read' } : {}),
              },
            },
          ],
        },
        index === pieces.length - 1 ? 'function_call' : null,
      ),
    );
    const sdk = await sdkAssembled(chunks);
    expect(sdk).toEqual([{ id: '123', name: 'read', arguments: { path: 'a.md' } }]);
    expect(promotedBy(chunks)).toEqual(sdk);
  });

  it('promotes calls whose id and name come in fragments after the first, and closes each in turn', async () => {
    const chunks = [0, 1].flatMap((index) => [
      chunk({
        role: 'assistant',
        tool_calls: [{ index, type: 'function', function: { arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index, id: `call_${index}`, function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index, function: { name: index === 0 ? 'read' : 'fs_stat' } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: `"${index}.md"}` } }] }),
    ]);
    chunks.push(chunk({}, 'tool_calls'));
    const sdk = await sdkAssembled(chunks);
    expect(sdk.map((call) => call.name)).toEqual(['read', 'fs_stat']);
    expect(promotedBy(chunks)).toEqual([
      { id: 'call_0', name: 'read', arguments: { path: '0.md' } },
      { id: 'call_1', name: 'fs.stat', arguments: { path: '1.md' } },
    ]);
  });

  it('promotes a whole call that never got a name with an empty one, for the dispatcher to refuse', () => {
    const translate = chatChunkDeltas();
    const deltas = [
      ...translate(chunk({ tool_calls: [{ index: 0, id: 'c1', function: { arguments: '{}' } }] })),
      ...translate(chunk({}, 'tool_calls')),
    ];
    expect(deltas.slice(0, 2)).toEqual([
      { type: 'call_start', key: '0', id: 'c1', name: '' },
      { type: 'call_arguments', key: '0', fragment: '{}' },
    ]);
    const events = detect(deltas, openAITestRegistry());
    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'c1',
      call: { id: 'c1', name: '', arguments: {} },
    });
  });
});

/** `text` cut at these positions (modulo its length), in order. */
function split(text: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const position of positions) {
    pieces.push(text.slice(start, position));
    start = position;
  }
  pieces.push(text.slice(start));
  return pieces;
}
