import { createDispatcher } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatCompletionReply,
  functionCallItem,
  type OpenAIWireServer,
  RESPONSES_PATH,
  responseObject,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import {
  proposedCallsFromChatCompletion,
  proposedCallsFromResponse,
  toChatMessages,
  toChatToolMessages,
  toChatTools,
  toResponsesFunctionOutputs,
  toResponsesTools,
} from '../src/index.js';
import { openAITestRegistry } from './support.js';

const registry = openAITestRegistry();
let server: OpenAIWireServer;

beforeEach(async () => {
  server = await startOpenAIWireServer();
});
afterEach(async () => {
  await server.close();
});

describe('proposedCallsFromChatCompletion', () => {
  it('reads the function calls of a non-streamed completion, in order', async () => {
    server.reply(
      CHAT_PATH,
      chatCompletionReply([
        { id: 'call_a', name: 'read', arguments: '{"path":"a.md"}' },
        { id: 'call_b', name: 'fs_stat', arguments: '{"path":"b.md"}' },
      ]),
    );
    const completion = await server.client().chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: toChatTools(registry.modelDefinitions()),
    });

    expect(proposedCallsFromChatCompletion(completion)).toEqual([
      { id: 'call_a', name: 'read', arguments: '{"path":"a.md"}' },
      { id: 'call_b', name: 'fs_stat', arguments: '{"path":"b.md"}' },
    ]);
  });

  it('returns no calls for a text answer', async () => {
    server.reply(CHAT_PATH, chatCompletionReply([], { text: 'Hello' }));
    const completion = await server.client().chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Hi' }],
    });

    expect(proposedCallsFromChatCompletion(completion)).toEqual([]);
  });

  it('gives calls the dispatcher runs under their canonical names, answered as tool messages', async () => {
    server.reply(
      CHAT_PATH,
      chatCompletionReply([
        { id: 'call_a', name: 'fs_stat', arguments: '{"path":"b.md"}' },
        { id: 'call_b', name: 'read', arguments: '{"path":' },
      ]),
    );
    const completion = await server.client().chat.completions.create({
      model: 'fake-model',
      messages: toChatMessages(undefined, [{ role: 'user', text: 'Hi' }]),
    });
    const dispatcher = createDispatcher({ registry });

    const results = await Promise.all(
      proposedCallsFromChatCompletion(completion).map((call, emitOrder) =>
        dispatcher.dispatch(call, { emitOrder }),
      ),
    );

    expect(results.map(({ toolName, toolCallId, ok }) => ({ toolName, toolCallId, ok }))).toEqual([
      { toolName: 'fs.stat', toolCallId: 'call_a', ok: true },
      { toolName: 'read', toolCallId: 'call_b', ok: false },
    ]);
    const messages = toChatToolMessages(results);
    expect(messages.map((message) => message.tool_call_id)).toEqual(['call_a', 'call_b']);
    expect(messages[0]?.content).toBe(results[0]?.observation);
  });
});

describe('proposedCallsFromResponse', () => {
  it('reads the function_call items of a non-streamed response with call_id as the id, skipping hosted items', async () => {
    server.reply(RESPONSES_PATH, {
      json: responseObject('completed', [
        {
          type: 'web_search_call',
          id: 'ws_1',
          status: 'completed',
          action: { type: 'search', query: 'x' },
        },
        functionCallItem({
          itemId: 'fc_1',
          id: 'call_a',
          name: 'read',
          arguments: '{"path":"a.md"}',
        }),
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Reading.', annotations: [] }],
        },
        functionCallItem({
          itemId: 'fc_2',
          id: 'call_b',
          name: 'write',
          arguments: '{"path":"b.md"}',
        }),
      ]),
    });
    const response = await server.client().responses.create({
      model: 'fake-model',
      input: 'Hi',
      tools: toResponsesTools(registry.modelDefinitions()),
    });

    const calls = proposedCallsFromResponse(response);

    expect(calls).toEqual([
      { id: 'call_a', name: 'read', arguments: '{"path":"a.md"}' },
      { id: 'call_b', name: 'write', arguments: '{"path":"b.md"}' },
    ]);
    const results = await Promise.all(
      calls.map((call, emitOrder) => createDispatcher({ registry }).dispatch(call, { emitOrder })),
    );
    expect(toResponsesFunctionOutputs(results)).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: results[0]?.observation },
      { type: 'function_call_output', call_id: 'call_b', output: results[1]?.observation },
    ]);
  });
});
