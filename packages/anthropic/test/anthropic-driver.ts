import {
  type BlockScript,
  errorFrame,
  errorReply,
  messageStream,
  startAnthropicWireServer,
  type WireReply,
} from '../../../test/support/anthropic-wire-server.js';
import {
  lastRequestOf,
  type ProviderDriver,
  paused,
  type ScriptedTurn,
  type TurnFinish,
} from '../../../test/support/provider-driver.js';
import { createAnthropicModel } from '../src/index.js';

/** Anthropic Messages: `tool_result` blocks (with `is_error`) answer the `tool_use` blocks. */
export async function startAnthropicDriver(): Promise<ProviderDriver> {
  const server = await startAnthropicWireServer();
  return {
    provider: 'anthropic',
    cutOffReason: 'max_tokens',
    errorFrameCategory: 'overloaded',
    flagsErrors: true,
    model: () => createAnthropicModel({ model: 'claude-wire', client: server.client() }),
    reply: (...turns) => server.reply(...turns.map(anthropicReply)),
    lastRequest: () => lastRequestOf(server.requests),
    sent() {
      const messages = lastRequestOf(server.requests).body.messages as AnthropicMessage[];
      const blocks = messages.flatMap((message) =>
        Array.isArray(message.content) ? message.content : [],
      );
      return {
        calls: blocks
          .filter((block) => block.type === 'tool_use')
          .map((block) => ({ id: block.id, name: block.name, arguments: block.input })),
        results: blocks
          .filter((block) => block.type === 'tool_result')
          .map((block) => ({
            toolCallId: block.tool_use_id,
            content: block.content,
            isError: block.is_error,
          })),
      };
    },
    // The API takes `input` as an object only: a call whose arguments were broken goes back empty.
    replayOfBrokenArguments: () => ({}),
    close: () => server.close(),
  };
}

/** The fields read back from a recorded content block, on the block types that have them. */
interface AnthropicBlock {
  readonly type: string;
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly tool_use_id: string;
  readonly content: unknown;
  readonly is_error: boolean;
}

interface AnthropicMessage {
  readonly role: string;
  readonly content: string | AnthropicBlock[];
}

/** The stop reason of each finish: the builder's default (`tool_use` / `end_turn`) when safe. */
const STOP_REASON = {
  safe: undefined,
  cut_off: 'max_tokens',
  held: null,
  error: null,
} satisfies Record<TurnFinish, string | null | undefined>;

function anthropicReply(turn: ScriptedTurn): WireReply {
  if (turn.type === 'rate_limited') {
    return errorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit');
  }
  const blocks: BlockScript[] = [
    ...(turn.text === undefined ? [] : [{ text: turn.text }]),
    ...turn.calls.map((call) => ({
      toolUse: { id: call.id, name: call.name, jsonPieces: call.arguments },
    })),
  ];
  const stopReason = STOP_REASON[turn.finish];
  const frames = messageStream(blocks, stopReason === undefined ? {} : { stopReason });
  if (turn.finish === 'error') frames.push(errorFrame('overloaded_error', 'Overloaded'));
  return {
    stream: paused(frames, turn),
    ...(turn.finish === 'held' ? { ending: 'hold' as const } : {}),
  };
}
