import { agentLoop } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWriteTools } from '../../../test/agent/support.js';
import {
  type OpenAIWireServer,
  RESPONSES_PATH,
  responsesToolCallStream,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { createOpenAIResponsesModel } from '../src/index.js';

let server: OpenAIWireServer;
beforeEach(async () => {
  server = await startOpenAIWireServer();
});
afterEach(async () => {
  await server.close();
});

const webSearch = {
  type: 'web_search_call',
  id: 'ws_1',
  status: 'completed',
  action: { type: 'search', query: 'tides' },
};

describe('agentLoop over OpenAI Responses: a turn with a hosted tool', () => {
  it('sends the turn back as the response recorded it, hosted call included, with the answers after it', async () => {
    server.reply(
      RESPONSES_PATH,
      {
        sse: responsesToolCallStream(
          [{ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"path": "a.md"}'] }],
          { hosted: [webSearch] },
        ),
      },
      { sse: responsesToolCallStream([], { text: 'Done.' }) },
    );
    const { registry } = readWriteTools();
    const model = createOpenAIResponsesModel({
      model: 'm',
      client: server.client(),
      hostedTools: [{ type: 'web_search' }],
    });

    const run = await agentLoop({ task: 'Tides?', model, tools: registry });

    expect(run.status).toBe('completed');
    expect(run.text).toBe('Done.');
    const second = server.requests[1]?.body as { input: Record<string, unknown>[] };
    expect(second.input.map((item) => [item.type, item.id ?? item.call_id])).toEqual([
      ['message', undefined],
      ['web_search_call', 'ws_1'],
      ['function_call', 'fc_1'],
      ['function_call_output', 'call_a'],
    ]);
    expect(second.input[1]).toEqual(webSearch);
  });
});
