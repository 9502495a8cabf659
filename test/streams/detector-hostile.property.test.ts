import fc from 'fast-check';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { chatChunkDeltas } from '../../src/providers/openai/chat-chunk-deltas.js';
import {
  createNativeDetector,
  createTextDetector,
  type DetectorEvent,
} from '../../src/streams/detectors.js';
import { parseTextCall } from '../../src/streams/text-call-parser.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import { argsArbitrary, splitAt, TOOL_NAMES } from './text-detector-arbitraries.js';

/**
 * Every candidate ends: after `end()`, each `candidate_opened` has exactly one promotion or
 * retraction (and nothing else about it follows). Returns the ids that broke the rule.
 */
function unsettled(events: readonly DetectorEvent[]): string[] {
  const endings = new Map<string, number>();
  const broken: string[] = [];
  for (const event of events) {
    if (event.type === 'candidate_opened') endings.set(event.toolCallId, 0);
    if (event.type === 'candidate_promoted' || event.type === 'candidate_retracted') {
      endings.set(event.toolCallId, (endings.get(event.toolCallId) ?? 0) + 1);
    }
    if (event.type === 'provider_native_call') endings.set(event.toolCallId, 1);
  }
  for (const [id, count] of endings) if (count !== 1) broken.push(`${id}: ${count} endings`);
  return broken;
}

function textEvents(chunks: readonly string[]): DetectorEvent[] {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const detector = createTextDetector({
    toolNames: TOOL_NAMES,
    onEvent: (event) => events.push(event),
    generateCallId: () => `c${++counter}`,
  });
  for (const chunk of chunks) detector.pushText(chunk);
  detector.end();
  return events;
}

/** Only the calls' fates, which must not depend on chunking (text runs may split differently). */
function fates(events: readonly DetectorEvent[]) {
  return events.filter((event) => event.type !== 'text');
}

const nest = (open: string, close: string, depth: number, inner = '') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

describe('the text detector ends every candidate, whatever the model writes', () => {
  it.each([
    ['a bare call', (body: string) => `t({a: ${body}})\n`],
    ['a tagged call', (body: string) => `<tool_call>\nt({a: ${body}})\n</tool_call>\n`],
    ['a call the text cuts off', (body: string) => `t({a: ${body}`],
  ])('settles %s with arguments nested 4,000 and 100,000 deep in relaxed syntax', (_, call) => {
    for (const depth of [4_000, 100_000]) {
      for (const body of [
        nest('[', ']', depth),
        nest('{k: ', '}', depth, '1'),
        nest('[{x: ', '}]', depth, "'s'"),
      ]) {
        const events: DetectorEvent[] = [];
        const detector = createTextDetector({
          toolNames: ['t'],
          onEvent: (event) => events.push(event),
        });
        detector.pushText(call(body));
        detector.end();
        expect(events.filter((event) => event.type === 'candidate_opened')).toHaveLength(1);
        expect(unsettled(events)).toEqual([]);
      }
    }
  });

  it('promotes deep relaxed arguments with their exact shape', () => {
    const depth = 4_000;
    const parsed = parseTextCall(`t({a: ${nest('[', ']', depth)}, b: 'x',})`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    let level: unknown = parsed.arguments.a;
    for (let index = 0; index < depth - 1; index += 1) {
      expect(Array.isArray(level) && level.length === 1).toBe(true);
      level = (level as unknown[])[0];
    }
    expect(level).toEqual([]);
    expect(parsed.arguments.b).toBe('x');
  });

  const hostile = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'read(',
          'edit({',
          'run({ a: ',
          '<tool_call>',
          '</tool_call>',
          '<tool_call>read(',
          '\n',
          '{',
          '}',
          '[',
          ']',
          '(',
          ')',
          ',',
          ':',
          '"',
          "'",
          '`',
          '\\',
          '\\u12',
          '<<EOF\n',
          '\nEOF\n',
          '//',
          '/*',
          '*/',
          '```\n',
          '<user_response>',
          '</user_response>',
          '<done>',
          '</done>',
          'undefined',
          'tru',
          '-1e',
          '\uD800',
          '😀',
        ),
        fc.string({ maxLength: 6 }),
        fc.nat({ max: 3000 }).map((depth) => nest('[', ']', depth)),
        fc.nat({ max: 3000 }).map((depth) => '{a:'.repeat(depth)),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''));

  it('never throws, ends every candidate, and gives the same calls however the text is chunked', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const whole = textEvents([text]);
        expect(unsettled(whole)).toEqual([]);
        const split = textEvents(splitAt(text, cuts));
        expect(unsettled(split)).toEqual([]);
        expect(fates(split)).toEqual(fates(whole));
      }),
      { numRuns: 300 },
    );
  });
});

const nativeDelta: fc.Arbitrary<ToolCallDelta> = fc.oneof(
  fc.record({
    type: fc.constant('call_start' as const),
    key: fc.constantFrom('0', '1', '2'),
    name: fc.constantFrom('read', 'edit', 'nope', ''),
    providerNative: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('call_arguments' as const),
    key: fc.constantFrom('0', '1', '2', '9'),
    fragment: fc.oneof(
      fc.constantFrom('{', '}', '"a":', '1', ',', '[', ']', '"', '\\', 'null', ''),
      fc.string({ maxLength: 5 }),
      fc.nat({ max: 5000 }).map((depth) => nest('[', ']', depth)),
    ),
  }),
  fc.record({
    type: fc.constant('call_end' as const),
    key: fc.constantFrom('0', '1', '2'),
  }),
  fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 4 }) }),
  fc.record({
    type: fc.constant('finish' as const),
    reason: fc.constantFrom('stop', 'length'),
    safe: fc.boolean(),
  }),
);

describe('the native detector ends every candidate, whatever the deltas', () => {
  it('never throws and settles each opened call exactly once', () => {
    fc.assert(
      fc.property(fc.array(nativeDelta, { maxLength: 25 }), (deltas) => {
        const events: DetectorEvent[] = [];
        const detector = createNativeDetector({
          toolNames: ['read', 'edit'],
          onEvent: (event) => events.push(event),
          coalesceMs: 0,
        });
        for (const delta of deltas) detector.push(delta);
        detector.end();
        expect(unsettled(events)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

interface ChatCallScript {
  readonly name: 'read' | 'edit';
  readonly body: string;
  readonly cuts: readonly number[];
  /** The fragment (0 = first) that names the call; later than the last means the last. */
  readonly nameAt: number;
  /** The fragment that carries the id. */
  readonly idAt: number;
}

function chatChunk(delta: ChatCompletionChunk.Choice.Delta, finish: 'tool_calls' | null = null) {
  return {
    id: 'chatcmpl_1',
    object: 'chat.completion.chunk' as const,
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  };
}

function chatChunks(calls: readonly ChatCallScript[]): ChatCompletionChunk[] {
  const chunks: ChatCompletionChunk[] = [chatChunk({ role: 'assistant', content: 'On it.' })];
  calls.forEach((call, index) => {
    const pieces = splitAt(call.body, call.cuts);
    const nameAt = Math.min(call.nameAt, pieces.length - 1);
    const idAt = Math.min(call.idAt, pieces.length - 1);
    pieces.forEach((piece, position) => {
      chunks.push(
        chatChunk({
          tool_calls: [
            {
              index,
              ...(position === idAt ? { id: `call_${index}`, type: 'function' as const } : {}),
              function: { arguments: piece, ...(position === nameAt ? { name: call.name } : {}) },
            },
          ],
        }),
      );
    });
  });
  chunks.push(chatChunk({}, 'tool_calls'));
  return chunks;
}

async function sdkCalls(chunks: readonly ChatCompletionChunk[]) {
  const lines = `${chunks.map((chunk) => JSON.stringify(chunk)).join('\n')}\n`;
  const stream = ChatCompletionStream.fromReadableStream(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(lines));
        controller.close();
      },
    }),
  );
  const message = (await stream.finalChatCompletion()).choices[0]?.message;
  return (message?.tool_calls ?? []).map((call) => {
    if (call.type !== 'function') throw new Error('expected a function call');
    return {
      id: call.id,
      name: call.function.name,
      arguments: JSON.parse(call.function.arguments),
    };
  });
}

describe('Chat chunks assemble as the OpenAI SDK assembles them', () => {
  const script: fc.Arbitrary<ChatCallScript> = fc.record({
    name: fc.constantFrom('read' as const, 'edit' as const),
    body: argsArbitrary.map((args) => JSON.stringify(args)),
    cuts: fc.array(fc.nat(), { maxLength: 5 }),
    nameAt: fc.nat({ max: 6 }),
    idAt: fc.nat({ max: 6 }),
  });

  it('promotes the calls the SDK assembles, wherever the name, the id and the cuts fall', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(script, { minLength: 1, maxLength: 3 }), async (calls) => {
        const chunks = chatChunks(calls);
        const events: DetectorEvent[] = [];
        const detector = createNativeDetector({
          toolNames: ['read', 'edit'],
          onEvent: (event) => events.push(event),
          coalesceMs: false,
        });
        const translate = chatChunkDeltas();
        for (const chunk of chunks) for (const delta of translate(chunk)) detector.push(delta);
        detector.end();
        expect(unsettled(events)).toEqual([]);
        const promoted = events.flatMap((event) =>
          event.type === 'candidate_promoted' ? [event.call] : [],
        );
        // An id that comes after the name is too late: the call has started with one of its own.
        const expected = (await sdkCalls(chunks)).map((call, index) => {
          const { cuts, body, nameAt, idAt } = calls[index]!;
          const last = splitAt(body, cuts).length - 1;
          return Math.min(idAt, last) <= Math.min(nameAt, last)
            ? call
            : { ...call, id: promoted[index]?.id };
        });
        expect(promoted).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
