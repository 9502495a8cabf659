import { createToolRegistry, defineTool } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { messageStream } from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { server } from './wire-server-fixture.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
  required: ['city'],
} as const;

describe('input examples on the Messages API', () => {
  it('go out natively as input_examples, the description left as it is', async () => {
    const registry = createToolRegistry([
      defineTool({
        name: 'weather',
        description: 'Current weather',
        inputSchema: schema,
        inputExamples: [{ city: 'Oslo' }, { city: 'Lima', unit: 'f' }],
        handler: () => 21,
      }),
      defineTool({
        name: 'plain',
        description: 'No examples',
        inputSchema: schema,
        handler: () => 0,
      }),
    ]);
    server.reply({ stream: messageStream([{ text: 'ok' }]) });
    const model = createAnthropicModel({ model: 'claude-wire', client: server.client() });

    for await (const _ of model.stream({
      messages: [{ role: 'user', text: 'Weather?' }],
      tools: registry.modelDefinitions(),
    })) {
      // Drain: the request is what this test looks at.
    }

    const { body } = await server.nextRequest();
    expect(body.tools).toEqual([
      {
        name: 'weather',
        description: 'Current weather',
        input_schema: schema,
        input_examples: [{ city: 'Oslo' }, { city: 'Lima', unit: 'f' }],
      },
      { name: 'plain', description: 'No examples', input_schema: schema },
    ]);
  });
});
