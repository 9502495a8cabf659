import { createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatToolCallStream,
  RESPONSES_PATH,
  responsesToolCallStream,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import { collect } from './support.js';
import { server } from './wire-server-fixture.js';

const registry = createToolRegistry([
  defineTool({
    name: 'weather',
    description: 'Current weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    inputExamples: [{ city: 'Oslo' }],
    handler: () => 21,
  }),
]);
const request = () => ({
  messages: [{ role: 'user' as const, text: 'Weather?' }],
  tools: registry.modelDefinitions(),
});
const described = 'Current weather\n\nInput examples:\n{"city":"Oslo"}';

describe('input examples on OpenAI, which has no field for them', () => {
  it('are written into the Chat Completions tool description', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([]) });
    await collect(
      createOpenAIChatModel({ model: 'gpt-5.1', client: server.client() }).stream(request()),
    );
    const { body } = await server.nextRequest();
    expect(body.tools).toMatchObject([{ function: { name: 'weather', description: described } }]);
  });

  it('are written into the Responses tool description', async () => {
    server.reply(RESPONSES_PATH, { sse: responsesToolCallStream([]) });
    await collect(
      createOpenAIResponsesModel({ model: 'gpt-5.1', client: server.client() }).stream(request()),
    );
    const { body } = await server.nextRequest();
    expect(body.tools).toMatchObject([{ name: 'weather', description: described }]);
  });
});
