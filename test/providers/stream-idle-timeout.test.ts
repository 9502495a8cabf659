import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, InvalidOptionError, ModelError } from '../../src/errors.js';
import { createAnthropicModel } from '../../src/providers/anthropic/index.js';
import type { ModelClient, ModelRequest } from '../../src/providers/model-client.js';
import {
  createOpenAIChatModel,
  createOpenAIResponsesModel,
} from '../../src/providers/openai/index.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import {
  type AnthropicWireServer,
  messageStream,
  startAnthropicWireServer,
} from '../support/anthropic-wire-server.js';
import type { SseStep } from '../support/loopback-server.js';
import { chatToolCallStream } from '../support/openai-chat-frames.js';
import { responsesToolCallStream } from '../support/openai-responses-frames.js';
import {
  CHAT_PATH,
  type OpenAIWireServer,
  RESPONSES_PATH,
  startOpenAIWireServer,
} from '../support/openai-wire-server.js';

const IDLE_MS = 80;
const request = (signal?: AbortSignal): ModelRequest => ({
  messages: [{ role: 'user', text: 'Go.' }],
  tools: [
    { name: 'read', canonicalName: 'read', description: 'read', inputSchema: { type: 'object' } },
  ],
  ...(signal === undefined ? {} : { signal }),
});

interface Driver {
  /** A model whose next response streams one call, then holds the stream open or ends it. */
  start(idleTimeoutMs: number, ending: 'hold' | 'end'): ModelClient;
  /** Resolves once the client has given up the request. */
  abandoned(): Promise<void>;
}

let openai: OpenAIWireServer;
let anthropic: AnthropicWireServer;
beforeEach(async () => {
  [openai, anthropic] = await Promise.all([startOpenAIWireServer(), startAnthropicWireServer()]);
});
afterEach(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
});

const call = { id: 'call_a', name: 'read', arguments: ['{"pa', 'th": "a.md"}'] };

const drivers: Record<string, Driver> = {
  'OpenAI Chat': {
    start(idleTimeoutMs, ending) {
      const steps = chatToolCallStream([call], { finish: ending === 'end' ? 'tool_calls' : null });
      openai.reply(CHAT_PATH, { sse: held(steps, ending) });
      return createOpenAIChatModel({ model: 'm', client: openai.client(), idleTimeoutMs });
    },
    abandoned: async () => (await openai.nextRequest()).abandoned,
  },
  'OpenAI Responses': {
    start(idleTimeoutMs, ending) {
      const steps = responsesToolCallStream(
        [{ itemId: 'fc_1', ...call }],
        ending === 'end' ? {} : { lastCallOpen: true, end: { status: 'none' } },
      );
      openai.reply(RESPONSES_PATH, { sse: held(steps, ending) });
      return createOpenAIResponsesModel({ model: 'm', client: openai.client(), idleTimeoutMs });
    },
    abandoned: async () => (await openai.nextRequest()).abandoned,
  },
  Anthropic: {
    start(idleTimeoutMs, ending) {
      const frames = messageStream([
        { toolUse: { id: 'toolu_1', name: 'read', jsonPieces: call.arguments } },
      ]);
      anthropic.reply(
        ending === 'end' ? { stream: frames } : { stream: frames.slice(0, 3), ending: 'hold' },
      );
      return createAnthropicModel({ model: 'm', client: anthropic.client(), idleTimeoutMs });
    },
    abandoned: async () => (await anthropic.nextRequest()).abandoned,
  },
};

function held(steps: readonly SseStep[], ending: 'hold' | 'end'): SseStep[] {
  return ending === 'hold' ? [...steps, { hold: true }] : [...steps];
}

describe.each(Object.entries(drivers))('%s: a stream that stalls', (_, driver) => {
  it('fails the turn with a retryable timeout ModelError and gives up the request', async () => {
    const model = driver.start(IDLE_MS, 'hold');
    const seen: ToolCallDelta[] = [];

    const error = await (async () => {
      for await (const delta of model.stream(request())) seen.push(delta);
    })().catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ category: 'timeout', retryable: true });
    expect((error as Error).message).toContain(`${IDLE_MS} ms`);
    expect(seen.some((delta) => delta.type === 'call_start')).toBe(true);
    await driver.abandoned();
  });

  it('does not count the time the consumer spends on the deltas', async () => {
    const model = driver.start(IDLE_MS, 'end');
    const types: string[] = [];

    for await (const delta of model.stream(request())) {
      types.push(delta.type);
      // Longer than the limit, while the rest of the stream waits in the client's buffer.
      if (types.length <= 2) await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 1.5));
    }

    expect(types).toContain('finish');
  });
});

describe('idle timeout and cancellation', () => {
  it('reports a turn cancelled mid-stream as cancelled, with the idle limit armed', async () => {
    const model = drivers['OpenAI Chat']!.start(IDLE_MS, 'hold');
    const controller = new AbortController();
    const turn = (async () => {
      for await (const delta of model.stream(request(controller.signal))) {
        if (delta.type === 'call_arguments') controller.abort();
      }
    })();

    const error = await turn.catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(CancelledError);
  });
});

describe('idleTimeoutMs option', () => {
  it.each([0, -1, Number.NaN, '100'])(
    'refuses %s with an InvalidOptionError naming it',
    (value) => {
      for (const create of [
        () =>
          createOpenAIChatModel({
            model: 'm',
            client: openai.client(),
            idleTimeoutMs: value as number,
          }),
        () =>
          createAnthropicModel({
            model: 'm',
            client: anthropic.client(),
            idleTimeoutMs: value as number,
          }),
      ]) {
        expect(create).toThrow(InvalidOptionError);
        expect(create).toThrow(/idleTimeoutMs/);
      }
    },
  );

  it('takes Infinity for no limit', () => {
    expect(() =>
      createOpenAIResponsesModel({ model: 'm', client: openai.client(), idleTimeoutMs: Infinity }),
    ).not.toThrow();
  });
});
