import {
  CHAT_PATH,
  chatToolCallStream,
  errorFrame,
  errorReply,
  RESPONSES_PATH,
  type ResponsesEnd,
  responsesToolCallStream,
  startOpenAIWireServer,
  type WireReply,
} from '../../../test/support/openai-wire-server.js';
import {
  lastRequestOf,
  type ProviderDriver,
  paused,
  type ScriptedTurn,
  type TurnFinish,
} from '../../../test/support/provider-driver.js';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';

/** OpenAI Chat Completions: `role: 'tool'` messages answer the assistant's `tool_calls`. */
export async function startOpenAIChatDriver(): Promise<ProviderDriver> {
  const server = await startOpenAIWireServer();
  return {
    provider: 'openai',
    cutOffReason: 'length',
    errorFrameCategory: 'rate_limit',
    flagsErrors: false,
    model: () => createOpenAIChatModel({ model: 'fake-model', client: server.client() }),
    reply: (...turns) => server.reply(CHAT_PATH, ...turns.map(chatReply)),
    lastRequest: () => lastRequestOf(server.requests),
    sent() {
      const messages = lastRequestOf(server.requests).body.messages as ChatMessage[];
      return {
        calls: messages.flatMap((message) =>
          (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          })),
        ),
        results: messages
          .filter((message) => message.role === 'tool')
          .map((message) => ({ toolCallId: message.tool_call_id, content: message.content })),
      };
    },
    replayOfBrokenArguments: (text) => text,
    close: () => server.close(),
  };
}

/** The fields read back from a recorded Chat message (tool fields on the messages that have them). */
interface ChatMessage {
  readonly role: string;
  readonly tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  readonly tool_call_id: string;
  readonly content?: unknown;
}

/** The 429 both OpenAI APIs answer with. */
const openAIRateLimited = errorReply(429, 'Too many requests', {
  type: 'requests',
  code: 'rate_limit_exceeded',
});

function chatReply(turn: ScriptedTurn): WireReply {
  if (turn.type === 'rate_limited') return openAIRateLimited;
  const finish = (
    {
      safe: turn.calls.length > 0 ? 'tool_calls' : 'stop',
      cut_off: 'length',
      held: null,
      error: null,
    } satisfies Record<TurnFinish, string | null>
  )[turn.finish];
  const steps = chatToolCallStream(turn.calls, {
    ...(turn.text === undefined ? {} : { text: turn.text }),
    finish,
  });
  if (turn.finish === 'held') steps.push({ hold: true });
  if (turn.finish === 'error') {
    steps.push(errorFrame('Rate limit reached', 'requests', 'rate_limit_exceeded'));
  }
  return { sse: paused(steps, turn) };
}

/** OpenAI Responses: `function_call_output` input items answer the `function_call` items. */
export async function startOpenAIResponsesDriver(): Promise<ProviderDriver> {
  const server = await startOpenAIWireServer();
  return {
    provider: 'openai',
    cutOffReason: 'max_output_tokens',
    errorFrameCategory: 'server_error',
    flagsErrors: false,
    model: () => createOpenAIResponsesModel({ model: 'fake-model', client: server.client() }),
    reply: (...turns) => server.reply(RESPONSES_PATH, ...turns.map(responsesReply)),
    lastRequest: () => lastRequestOf(server.requests),
    sent() {
      const input = lastRequestOf(server.requests).body.input as ResponsesItem[];
      return {
        calls: input
          .filter((item) => item.type === 'function_call')
          .map((item) => ({ id: item.call_id, name: item.name, arguments: item.arguments })),
        results: input
          .filter((item) => item.type === 'function_call_output')
          .map((item) => ({ toolCallId: item.call_id, content: item.output })),
      };
    },
    replayOfBrokenArguments: (text) => text,
    close: () => server.close(),
  };
}

/** The fields read back from a recorded input item, on the item types that have them. */
interface ResponsesItem {
  readonly type: string;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
  readonly output: unknown;
}

/** How a Responses turn ends for each finish; a cut-off also leaves its last call open. */
const RESPONSES_END = {
  safe: { status: 'completed' },
  cut_off: { status: 'incomplete', reason: 'max_output_tokens' },
  held: { status: 'none' },
  error: {
    status: 'error',
    code: 'server_error',
    message: 'The server had an error while processing your request.',
  },
} satisfies Record<TurnFinish, ResponsesEnd>;

function responsesReply(turn: ScriptedTurn): WireReply {
  if (turn.type === 'rate_limited') return openAIRateLimited;
  const steps = responsesToolCallStream(
    turn.calls.map((call) => ({ ...call, itemId: `fc_${call.id}` })),
    {
      ...(turn.text === undefined ? {} : { text: turn.text }),
      end: RESPONSES_END[turn.finish],
      lastCallOpen: turn.finish === 'cut_off',
    },
  );
  if (turn.finish === 'held') steps.push({ hold: true });
  return { sse: paused(steps, turn) };
}
