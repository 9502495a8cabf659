import type { ModelRequest } from 'switchyard/providers';
import { messageStream } from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel } from '../src/index.js';
import { server } from './wire-server-fixture.js';

/** Sends one turn and returns the body the server received. */
export async function sentBody(
  request: ModelRequest,
  options: { disableParallelToolUse?: boolean; extraBody?: Record<string, unknown> } = {},
) {
  server.reply({ stream: messageStream([{ text: 'ok' }]) });
  const model = createAnthropicModel({ model: 'claude-wire', client: server.client(), ...options });
  for await (const _ of model.stream(request)) {
    // Drain: the request is what this suite looks at.
  }
  return (await server.nextRequest()).body;
}
