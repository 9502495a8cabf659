import type { ModelRequest } from 'switchyard/providers';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import { openAITestRegistry } from './support.js';
import { server } from './wire-server-fixture.js';

/** The tools every request of these suites advertises. */
export const registry = openAITestRegistry();

/** A Chat Completions model over the running test's wire server. */
export function chatModel() {
  return createOpenAIChatModel({ model: 'fake-model', client: server.client() });
}

/** A Responses model over the running test's wire server. */
export function responsesModel() {
  return createOpenAIResponsesModel({ model: 'fake-model', client: server.client() });
}

/** A request about a.md and b.md that advertises `registry`'s tools. */
export function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [{ role: 'user', text: 'Look at a.md and b.md' }],
    tools: registry.modelDefinitions(),
    ...extra,
  };
}
