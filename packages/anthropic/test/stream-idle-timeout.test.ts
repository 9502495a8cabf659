import { InvalidOptionError } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  messageStream,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import {
  IDLE_CALL,
  type IdleDriver,
  streamIdleSuite,
} from '../../../test/support/stream-idle-suite.js';
import { createAnthropicModel } from '../src/index.js';

async function anthropicDriver(): Promise<IdleDriver> {
  const anthropic = await startAnthropicWireServer();
  return {
    start(idleTimeoutMs, ending) {
      const frames = messageStream([
        { toolUse: { id: 'toolu_1', name: 'read', jsonPieces: IDLE_CALL.arguments } },
      ]);
      anthropic.reply(
        ending === 'end' ? { stream: frames } : { stream: frames.slice(0, 3), ending: 'hold' },
      );
      return createAnthropicModel({ model: 'm', client: anthropic.client(), idleTimeoutMs });
    },
    abandoned: async () => (await anthropic.nextRequest()).abandoned,
    close: () => anthropic.close(),
  };
}

streamIdleSuite('Anthropic', anthropicDriver);

describe('idleTimeoutMs option', () => {
  let anthropic: AnthropicWireServer;
  beforeEach(async () => {
    anthropic = await startAnthropicWireServer();
  });
  afterEach(() => anthropic.close());

  it.each([0, -1, Number.NaN, '100'])(
    'refuses %s with an InvalidOptionError naming it',
    (value) => {
      const create = () =>
        createAnthropicModel({
          model: 'm',
          client: anthropic.client(),
          idleTimeoutMs: value as number,
        });
      expect(create).toThrow(InvalidOptionError);
      expect(create).toThrow(/idleTimeoutMs/);
    },
  );
});
