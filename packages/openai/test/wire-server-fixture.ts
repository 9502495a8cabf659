import { afterEach, beforeEach } from 'vitest';
import {
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';

/**
 * The OpenAI wire server of the running test. Importing this module from a test file starts a
 * fresh server before each of its tests and closes it after; the binding is live, so tests read
 * the current one.
 */
export let server: OpenAIWireServer;

beforeEach(async () => {
  server = await startOpenAIWireServer();
});
afterEach(async () => {
  await server.close();
});
