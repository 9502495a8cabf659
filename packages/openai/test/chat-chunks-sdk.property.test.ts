// The native detector over Chat Completions chunks, checked against how the OpenAI SDK's own
// ChatCompletionStream assembles the same chunks.
import fc from 'fast-check';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';
import { describe, expect, it } from 'vitest';
import {
  argsArbitrary,
  splitAt,
  unsettled,
} from '../../../test/streams/text-detector-arbitraries.js';
import { chatChunkDeltas } from '../src/index.js';

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
