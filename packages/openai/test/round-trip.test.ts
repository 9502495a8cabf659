import type { TranscriptMessage } from 'switchyard';
import { createDispatcher, type ToolCallResult } from 'switchyard';
import {
  type CandidatePromotedEvent,
  createNativeDetector,
  type DetectorEvent,
} from 'switchyard/detectors';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatChunk,
  chatDone,
  chatToolCallStream,
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIChatModel } from '../src/index.js';
import { openAITestRegistry } from './support.js';

let server: OpenAIWireServer;

beforeEach(async () => {
  server = await startOpenAIWireServer();
});
afterEach(async () => {
  await server.close();
});

it('runs a two-turn conversation: streamed call, dispatch, results replayed, final answer', async () => {
  server.reply(
    CHAT_PATH,
    {
      sse: chatToolCallStream(
        [{ id: 'call_a', name: 'fs_stat', arguments: ['{"path":', ' "b.md"}'] }],
        { text: 'Checking.' },
      ),
    },
    {
      sse: [
        chatChunk({ role: 'assistant', content: 'b.md exists.' }),
        chatChunk({}, 'stop'),
        chatDone,
      ],
    },
  );
  const registry = openAITestRegistry();
  const dispatcher = createDispatcher({ registry });
  const model = createOpenAIChatModel({ model: 'fake-model', client: server.client() });
  const transcript: TranscriptMessage[] = [{ role: 'user', text: 'Stat b.md' }];

  async function turn(): Promise<{ text: string; promoted: CandidatePromotedEvent[] }> {
    const events: DetectorEvent[] = [];
    const detector = createNativeDetector({
      toolNames: registry.names(),
      resolveName: (name) => registry.resolve(name)?.name,
      onEvent: (event) => events.push(event),
      coalesceMs: false,
    });
    for await (const delta of model.stream({
      system: 'Be brief.',
      messages: transcript,
      tools: registry.modelDefinitions(),
    })) {
      detector.push(delta);
    }
    detector.end();
    return {
      text: events.map((event) => (event.type === 'text' ? event.text : '')).join(''),
      promoted: events.filter((event) => event.type === 'candidate_promoted'),
    };
  }

  const first = await turn();
  const results: ToolCallResult[] = await Promise.all(
    first.promoted.map((event) => dispatcher.dispatch(event.call, { emitOrder: event.emitOrder })),
  );
  transcript.push(
    {
      role: 'assistant',
      text: first.text,
      // The transcript keeps the name the model used: the alias, not the canonical name.
      toolCalls: first.promoted.map((event) => ({
        id: event.call.id,
        name: registry.aliasOf(event.call.name) ?? event.call.name,
        argumentsText: event.rawInput,
      })),
    },
    {
      role: 'tool',
      results: results.map((result) => ({
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        content: result.observation,
        isError: !result.ok,
      })),
    },
  );
  const second = await turn();

  expect(results.map(({ toolName, toolCallId, ok }) => ({ toolName, toolCallId, ok }))).toEqual([
    { toolName: 'fs.stat', toolCallId: 'call_a', ok: true },
  ]);
  expect(second).toEqual({ text: 'b.md exists.', promoted: [] });
  await server.nextRequest();
  const replayed = (await server.nextRequest()).body.messages;
  expect(replayed).toEqual([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Stat b.md' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'fs_stat', arguments: '{"path": "b.md"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: results[0]?.observation },
  ]);
});
