import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';
import type { ToolCallDelta } from 'switchyard/streams';
import { deferred } from 'switchyard/testing';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatChunk,
  chatToolCallStream,
} from '../../../test/support/openai-wire-server.js';
import { chatModel as model, registry, request } from './model-fixture.js';
import { collect, detect } from './support.js';
import { server } from './wire-server-fixture.js';

describe('createOpenAIChatModel streaming', () => {
  it('turns a streamed turn with several fragmented calls into deltas the detector promotes in order', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream(
        [
          { id: 'call_a', name: 'read', arguments: ['{"pa', 'th": "a', '.md"}'] },
          { id: 'call_b', name: 'fs_stat', arguments: ['{"path":', ' "b.md"}'] },
        ],
        { text: 'Looking.', usage: { input: 11, output: 22 } },
      ),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas).toEqual<ToolCallDelta[]>([
      { type: 'text', text: 'Looking.' },
      { type: 'call_start', key: '0', id: 'call_a', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"pa' },
      { type: 'call_arguments', key: '0', fragment: 'th": "a' },
      { type: 'call_arguments', key: '0', fragment: '.md"}' },
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'call_b', name: 'fs_stat' },
      { type: 'call_arguments', key: '1', fragment: '{"path":' },
      { type: 'call_arguments', key: '1', fragment: ' "b.md"}' },
      { type: 'finish', reason: 'tool_calls', safe: true },
      { type: 'usage', inputTokens: 11, outputTokens: 22 },
    ]);
    const promoted = detect(deltas, registry).filter(
      (event) => event.type === 'candidate_promoted',
    );
    expect(promoted.map(({ call, emitOrder }) => ({ call, emitOrder }))).toEqual([
      { call: { id: 'call_a', name: 'read', arguments: { path: 'a.md' } }, emitOrder: 0 },
      { call: { id: 'call_b', name: 'fs.stat', arguments: { path: 'b.md' } }, emitOrder: 1 },
    ]);
  });

  it('yields each delta as its chunk arrives, and the finish promotes the calls', async () => {
    const gate = deferred<void>();
    const steps = chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path":"a"}'] }]);
    const finishAt = steps.length - 3;
    server.reply(CHAT_PATH, {
      sse: [...steps.slice(0, finishAt), { waitFor: gate.promise }, ...steps.slice(finishAt)],
    });
    const events: DetectorEvent[] = [];
    const detector = createNativeDetector({
      toolNames: registry.names(),
      onEvent: (event) => events.push(event),
      coalesceMs: false,
    });
    const seenBeforeFinish: string[] = [];

    for await (const delta of model().stream(request())) {
      detector.push(delta);
      if (delta.type === 'call_arguments') {
        seenBeforeFinish.push(...events.map((event) => event.type));
        gate.resolve();
      }
    }

    expect(seenBeforeFinish).toEqual(['candidate_opened']);
    expect(events.map((event) => event.type)).toEqual(['candidate_opened', 'candidate_promoted']);
  });

  it('retracts a call cut off by finish_reason length', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_a', name: 'write', arguments: ['{"path": "a'] }], {
        finish: 'length',
      }),
    });

    const deltas = await collect(model().stream(request()));

    expect(deltas).toContainEqual({ type: 'finish', reason: 'length', safe: false });
    const events = detect(deltas, registry);
    expect(events.filter((event) => event.type === 'candidate_promoted')).toEqual([]);
    expect(events.find((event) => event.type === 'candidate_retracted')).toMatchObject({
      toolCallId: 'call_a',
      reason: 'cut_off',
      rawInput: '{"path": "a',
    });
  });

  it('promotes a whole call with malformed JSON arguments as their text, for the dispatcher to refuse', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_a', name: 'read', arguments: ['{"path": a.md}'] }]),
    });

    const events = detect(await collect(model().stream(request())), registry);

    expect(events.find((event) => event.type === 'candidate_retracted')).toBeUndefined();
    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'call_a',
      call: { name: 'read', arguments: '{"path": a.md}' },
    });
  });

  it('promotes a whole call to a tool that was not advertised under its own name', async () => {
    server.reply(CHAT_PATH, {
      sse: chatToolCallStream([{ id: 'call_x', name: 'delete', arguments: ['{}'] }]),
    });

    const events = detect(await collect(model().stream(request())), registry);

    expect(events.find((event) => event.type === 'candidate_promoted')).toMatchObject({
      toolCallId: 'call_x',
      toolName: 'delete',
      call: { name: 'delete', arguments: {} },
    });
  });

  it('yields only text and a safe finish for a turn without calls', async () => {
    server.reply(CHAT_PATH, {
      sse: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ content: 'Done' }),
        chatChunk({ content: '.' }),
        chatChunk({}, 'stop'),
        { data: '[DONE]' },
      ],
    });

    expect(await collect(model().stream(request()))).toEqual([
      { type: 'text', text: 'Done' },
      { type: 'text', text: '.' },
      { type: 'finish', reason: 'stop', safe: true },
    ]);
  });
});
