import {
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  type TranscriptMessage,
} from 'switchyard';
import { createNativeDetector, type DetectedCall } from 'switchyard/detectors';
import { recordingTool } from 'switchyard/testing';
import { expect, it } from 'vitest';
import { messageStream } from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { server } from './wire-server-fixture.js';

// The example of docs/anthropic.md, run against the wire server: one turn with a call, its
// result replayed, and the next turn.
it('runs a tool call round trip: stream, detect, dispatch, replay the results', async () => {
  server.reply(
    {
      stream: messageStream([
        { text: 'Reading it.' },
        { toolUse: { id: 'toolu_1', name: 'fs_read', jsonPieces: ['{"path":', '"notes.md"}'] } },
      ]),
    },
    { stream: messageStream([{ text: 'It says hi.' }]) },
  );
  const readFile = recordingTool({ name: 'fs.read', foreignName: true }).returns('hi');

  const registry = createToolRegistry([readFile.tool]);
  const dispatcher = createDispatcher({ registry });
  const model = createAnthropicModel({ model: 'claude-sonnet-5-5', client: server.client() });

  const transcript: TranscriptMessage[] = [{ role: 'user', text: 'What is in notes.md?' }];
  const calls: DetectedCall[] = [];
  let text = '';
  const detector = createNativeDetector({
    toolNames: registry.names(),
    resolveName: (name) => registry.resolve(name)?.name,
    onEvent: (event) => {
      if (event.type === 'candidate_promoted') calls.push(event.call);
      if (event.type === 'text') text += event.text;
    },
  });
  for await (const delta of model.stream({
    messages: transcript,
    tools: registry.modelDefinitions(),
  })) {
    detector.push(delta);
  }
  detector.end();

  const results = await dispatchTurn(calls, { dispatcher });
  transcript.push(
    {
      role: 'assistant',
      text,
      toolCalls: calls.map((call) => ({
        id: call.id,
        name: registry.aliasOf(call.name) ?? call.name,
        argumentsText: JSON.stringify(call.arguments),
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
  const next: string[] = [];
  for await (const delta of model.stream({
    messages: transcript,
    tools: registry.modelDefinitions(),
  })) {
    if (delta.type === 'text') next.push(delta.text);
  }

  expect(readFile.calls.map((call) => call.args)).toEqual([{ path: 'notes.md' }]);
  expect(next).toEqual(['It says hi.']);
  await server.nextRequest();
  const second = await server.nextRequest();
  expect(second.body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'What is in notes.md?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'fs_read', input: { path: 'notes.md' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi', is_error: false }],
    },
  ]);
});
