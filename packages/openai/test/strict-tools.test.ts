import { createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatToolCallStream,
  RESPONSES_PATH,
  responsesToolCallStream,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import { collect, detect } from './support.js';
import { server } from './wire-server-fixture.js';

const listSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'integer', default: 20 } },
  required: ['path'],
} as const;
const strictListSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: ['integer', 'null'], description: 'Default: 20.' },
  },
  required: ['path', 'limit'],
  additionalProperties: false,
};
const registry = createToolRegistry([
  defineTool({
    name: 'list',
    description: 'List a folder',
    inputSchema: listSchema,
    handler: () => [],
  }),
  defineTool({
    name: 'meta',
    description: 'Tag a file',
    inputSchema: { type: 'object', properties: { tags: { type: 'object' } }, required: ['tags'] },
    handler: () => 'ok',
  }),
]);
const request = () => ({
  messages: [{ role: 'user' as const, text: 'List a' }],
  tools: registry.modelDefinitions(),
});
const nullLimitCall = { id: 'call_a', name: 'list', arguments: ['{"path":"a",', '"limit":null}'] };

function promotedArguments(deltas: Parameters<typeof detect>[0]) {
  return detect(deltas, registry)
    .filter((event) => event.type === 'candidate_promoted')
    .map((event) => event.call.arguments);
}

describe('strict tools on Chat Completions', () => {
  it('sends the converting tools strict by default on a model that takes them, and the others as defined', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([nullLimitCall]) });
    const model = createOpenAIChatModel({ model: 'gpt-5.1', client: server.client() });

    const deltas = await collect(model.stream(request()));

    const { body } = await server.nextRequest();
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'list',
          description: 'List a folder',
          parameters: strictListSchema,
          strict: true,
        },
      },
      {
        type: 'function',
        function: {
          name: 'meta',
          description: 'Tag a file',
          parameters: registry.modelDefinitions()[1]?.inputSchema,
        },
      },
    ]);
    expect(promotedArguments(deltas)).toEqual([{ path: 'a' }]);
  });

  it('leaves the tools and the arguments alone on a model not known to take strict tools', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([nullLimitCall]) });
    const model = createOpenAIChatModel({ model: 'fake-model', client: server.client() });

    const deltas = await collect(model.stream(request()));

    const { body } = await server.nextRequest();
    expect(JSON.stringify(body.tools)).not.toContain('strict');
    expect(promotedArguments(deltas)).toEqual([{ path: 'a', limit: null }]);
  });

  it('turns strict tools on for any model with strictTools: true, and off with false', async () => {
    server.reply(CHAT_PATH, { sse: chatToolCallStream([]) }, { sse: chatToolCallStream([]) });
    await collect(
      createOpenAIChatModel({
        model: 'fake-model',
        client: server.client(),
        strictTools: true,
      }).stream(request()),
    );
    await collect(
      createOpenAIChatModel({
        model: 'gpt-5.1',
        client: server.client(),
        strictTools: false,
      }).stream(request()),
    );
    const [on, off] = server.requests;
    expect(JSON.stringify(on?.body.tools)).toContain('"strict":true');
    expect(JSON.stringify(off?.body.tools)).not.toContain('strict');
  });

  it('passes argument text that is not JSON through untouched, for validation to refuse', async () => {
    const broken = { id: 'call_a', name: 'list', arguments: ['{"path":', '"a", "limit":null'] };
    server.reply(CHAT_PATH, { sse: chatToolCallStream([broken]) });
    const model = createOpenAIChatModel({ model: 'gpt-5.1', client: server.client() });

    const deltas = await collect(model.stream(request()));

    const text = deltas.flatMap((delta) =>
      delta.type === 'call_arguments' ? [delta.fragment] : [],
    );
    expect(text).toEqual(['{"path":"a", "limit":null']);
  });
});

describe('strict tools on Responses', () => {
  it('sends strict: true for the converting tools and restores the arguments the call ends with', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream([{ ...nullLimitCall, itemId: 'fc_1' }]),
    });
    const model = createOpenAIResponsesModel({ model: 'gpt-5.1', client: server.client() });

    const deltas = await collect(model.stream(request()));

    const { body } = await server.nextRequest();
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'list',
        description: 'List a folder',
        parameters: strictListSchema,
        strict: true,
      },
      {
        type: 'function',
        name: 'meta',
        description: 'Tag a file',
        parameters: registry.modelDefinitions()[1]?.inputSchema,
        strict: false,
      },
    ]);
    expect(promotedArguments(deltas)).toEqual([{ path: 'a' }]);
  });
});
