import { describe, expect, it } from 'vitest';
import { CancelledError, InvalidOptionError, ModelError } from '../../src/index.js';
import type { ModelRequest } from '../../src/providers/index.js';
import type { ToolCallDelta } from '../../src/streams/index.js';
import { createScriptedModel } from '../../src/testing/index.js';

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', text: 'go' }],
  tools: [],
  ...extra,
});

async function collect(stream: AsyncIterable<ToolCallDelta>): Promise<ToolCallDelta[]> {
  const deltas: ToolCallDelta[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

describe('createScriptedModel', () => {
  it('streams text, then each call in fragments, then the finish', async () => {
    const model = createScriptedModel({
      fragmentChars: 4,
      turns: [
        {
          text: 'Hi there',
          toolCalls: [{ name: 'add', arguments: { a: 1 } }],
          usage: { inputTokens: 1, outputTokens: 2 },
        },
      ],
    });
    expect(await collect(model.stream(request()))).toEqual([
      { type: 'text', text: 'Hi t' },
      { type: 'text', text: 'here' },
      { type: 'call_start', key: '0', id: 'call_0_0', name: 'add' },
      { type: 'call_arguments', key: '0', fragment: '{"a"' },
      { type: 'call_arguments', key: '0', fragment: ':1}' },
      { type: 'call_end', key: '0' },
      { type: 'usage', inputTokens: 1, outputTokens: 2 },
      { type: 'finish', reason: 'tool_calls', safe: true },
    ]);
  });

  it('finishes with stop when a turn has no calls, and keeps every request', async () => {
    const model = createScriptedModel({ turns: [{ text: 'done' }] });
    const asked = request({ system: 'be brief' });
    const deltas = await collect(model.stream(asked));
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'stop', safe: true });
    expect(model.requests).toEqual([asked]);
    expect(model.remaining).toBe(0);
  });

  it('leaves the last call open on an unsafe finish', async () => {
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ name: 'a' }, { name: 'b', arguments: '{"x":' }], finish: 'length' }],
    });
    const deltas = await collect(model.stream(request()));
    expect(deltas.filter((d) => d.type === 'call_end')).toEqual([{ type: 'call_end', key: '0' }]);
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'length', safe: false });
  });

  it('writes calls as <tool_call> text in text mode', async () => {
    const model = createScriptedModel({
      toolCalling: 'text',
      fragmentChars: 1000,
      turns: [{ text: 'Sure.', toolCalls: [{ name: 'add', arguments: { a: 1 } }] }],
    });
    expect(model.toolCalling).toBe('text');
    const text = (await collect(model.stream(request())))
      .map((d) => (d.type === 'text' ? d.text : ''))
      .join('');
    expect(text).toBe('Sure.\n<tool_call>add({"a":1})</tool_call>\n');
  });

  it('answers from the request when a reply is a function', async () => {
    const model = createScriptedModel({
      turns: [(asked, turn) => ({ text: `turn ${turn}: ${asked.messages.length} messages` })],
    });
    const text = (await collect(model.stream(request())))
      .map((d) => (d.type === 'text' ? d.text : ''))
      .join('');
    expect(text).toBe('turn 0: 1 messages');
  });

  it('pauses before each call and fragment through the given sleep', async () => {
    const pauses: number[] = [];
    const model = createScriptedModel({
      callDelayMs: 50,
      fragmentDelayMs: 2,
      fragmentChars: 100,
      sleep: async (ms) => {
        pauses.push(ms);
      },
      turns: [{ toolCalls: [{ name: 'a' }, { name: 'b' }] }],
    });
    await collect(model.stream(request()));
    expect(pauses).toEqual([50, 2, 50, 2]);
  });

  it('fails the stream after the scripted number of deltas', async () => {
    const model = createScriptedModel({
      turns: [{ toolCalls: [{ name: 'a', arguments: { x: 1 } }], failAfter: { deltas: 2 } }],
    });
    const seen: ToolCallDelta[] = [];
    const failure = await (async () => {
      for await (const delta of model.stream(request())) seen.push(delta);
    })().catch((error: unknown) => error);
    expect(seen).toHaveLength(2);
    expect(ModelError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ category: 'transient_network', retryable: true });
  });

  it('rejects with CancelledError when the request signal aborts', async () => {
    const controller = new AbortController();
    const model = createScriptedModel({
      callDelayMs: 10_000,
      turns: [{ toolCalls: [{ name: 'a' }] }],
    });
    const pending = collect(model.stream(request({ signal: controller.signal })));
    controller.abort();
    await expect(pending).rejects.toSatisfy((error) => CancelledError.isInstance(error));
  });

  it('fails with a ModelError naming the count when asked for more turns than scripted', async () => {
    const model = createScriptedModel({ turns: [] });
    await expect(collect(model.stream(request()))).rejects.toThrow(
      'no scripted turn left (0 scripted, turn 1 asked)',
    );
  });

  it.each([
    [{ turns: 'x' }, 'turns'],
    [{ turns: [], fragmentChars: 0 }, 'fragmentChars'],
    [{ turns: [], callDelayMs: -1 }, 'callDelayMs'],
    [{ turns: [], toolCalling: 'json' }, 'toolCalling'],
  ])('refuses bad options (%j)', (options, option) => {
    expect(() => createScriptedModel(options as never)).toThrow(
      expect.objectContaining({ code: InvalidOptionError.CODE, option }),
    );
  });
});
