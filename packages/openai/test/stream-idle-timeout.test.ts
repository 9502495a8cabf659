import { CancelledError, InvalidOptionError } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SseStep } from '../../../test/support/loopback-server.js';
import { chatToolCallStream } from '../../../test/support/openai-chat-frames.js';
import { responsesToolCallStream } from '../../../test/support/openai-responses-frames.js';
import {
  CHAT_PATH,
  type OpenAIWireServer,
  RESPONSES_PATH,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import {
  IDLE_CALL,
  IDLE_MS,
  type IdleDriver,
  idleRequest,
  streamIdleSuite,
} from '../../../test/support/stream-idle-suite.js';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';

function held(steps: readonly SseStep[], ending: 'hold' | 'end'): SseStep[] {
  return ending === 'hold' ? [...steps, { hold: true }] : [...steps];
}

async function chatDriver(): Promise<IdleDriver> {
  const openai = await startOpenAIWireServer();
  return {
    start(idleTimeoutMs, ending) {
      const steps = chatToolCallStream([IDLE_CALL], {
        finish: ending === 'end' ? 'tool_calls' : null,
      });
      openai.reply(CHAT_PATH, { sse: held(steps, ending) });
      return createOpenAIChatModel({ model: 'm', client: openai.client(), idleTimeoutMs });
    },
    abandoned: async () => (await openai.nextRequest()).abandoned,
    close: () => openai.close(),
  };
}

async function responsesDriver(): Promise<IdleDriver> {
  const openai = await startOpenAIWireServer();
  return {
    start(idleTimeoutMs, ending) {
      const steps = responsesToolCallStream(
        [{ itemId: 'fc_1', ...IDLE_CALL }],
        ending === 'end' ? {} : { lastCallOpen: true, end: { status: 'none' } },
      );
      openai.reply(RESPONSES_PATH, { sse: held(steps, ending) });
      return createOpenAIResponsesModel({ model: 'm', client: openai.client(), idleTimeoutMs });
    },
    abandoned: async () => (await openai.nextRequest()).abandoned,
    close: () => openai.close(),
  };
}

streamIdleSuite('OpenAI Chat', chatDriver);
streamIdleSuite('OpenAI Responses', responsesDriver);

describe('idle timeout and cancellation', () => {
  it('reports a turn cancelled mid-stream as cancelled, with the idle limit armed', async () => {
    const driver = await chatDriver();
    const model = driver.start(IDLE_MS, 'hold');
    const controller = new AbortController();
    const turn = (async () => {
      for await (const delta of model.stream(idleRequest(controller.signal))) {
        if (delta.type === 'call_arguments') controller.abort();
      }
    })();

    const error = await turn.catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(CancelledError);
    await driver.close();
  });
});

describe('idleTimeoutMs option', () => {
  let openai: OpenAIWireServer;
  beforeEach(async () => {
    openai = await startOpenAIWireServer();
  });
  afterEach(() => openai.close());

  it.each([0, -1, Number.NaN, '100'])(
    'refuses %s with an InvalidOptionError naming it',
    (value) => {
      const create = () =>
        createOpenAIChatModel({
          model: 'm',
          client: openai.client(),
          idleTimeoutMs: value as number,
        });
      expect(create).toThrow(InvalidOptionError);
      expect(create).toThrow(/idleTimeoutMs/);
    },
  );

  it('takes Infinity for no limit', () => {
    expect(() =>
      createOpenAIResponsesModel({ model: 'm', client: openai.client(), idleTimeoutMs: Infinity }),
    ).not.toThrow();
  });
});
