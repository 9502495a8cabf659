import { afterEach, beforeEach } from 'vitest';
import {
  type AnthropicWireServer,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';

/**
 * The Anthropic wire server of the running test. Importing this module from a test file starts a
 * fresh server before each of its tests and closes it after; the binding is live, so tests read
 * the current one.
 */
export let server: AnthropicWireServer;

beforeEach(async () => {
  server = await startAnthropicWireServer();
});
afterEach(async () => {
  await server.close();
});
