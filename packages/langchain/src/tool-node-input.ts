import {
  type AIMessage,
  type BaseMessage,
  isAIMessage,
  isBaseMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { InvalidArgumentError, type ProposedCall } from 'switchyard';
import { proposedCallOf, proposedCallsFromAIMessage } from './proposed-calls-from-ai-message.js';

/** What a tool node run has to do, read from its input. */
export interface ToolNodeStep {
  /** The calls still to answer, in the order the model proposed them. */
  readonly calls: ProposedCall[];
  /** What the tools see as `runtime.state`: the input, less a `Send`'s routing key. */
  readonly state: unknown;
  /** The input was a list of messages (a `MessageGraph`), so the output is one too. */
  readonly messageList: boolean;
}

/**
 * Reads a tool node's input as LangGraph's `ToolNode` does: a `Send` payload (`lg_tool_call`, the
 * fan-out of `createReactAgent` v2) is one call; a list of messages or a state with `messages`
 * holds the last AI message, whose calls that no `ToolMessage` answers yet are the step's.
 * @throws InvalidArgumentError when the input is none of these, or holds no AI message.
 */
export function readToolNodeInput(input: unknown): ToolNodeStep {
  if (typeof input === 'object' && input !== null && 'lg_tool_call' in input) {
    const { lg_tool_call: call, ...state } = input as { lg_tool_call: ToolCall };
    return { calls: [proposedCallOf(call)], state, messageList: false };
  }
  const messageList = isMessageList(input);
  const messages = messageList ? input : messagesOf(input);
  if (messages === undefined) {
    throw new InvalidArgumentError(
      'input',
      'switchyardToolNode: the input must be a list of messages, a state with `messages`, or a Send payload with `lg_tool_call`',
    );
  }
  const last = lastAIMessage(messages);
  if (last === undefined) {
    throw new InvalidArgumentError('input', 'switchyardToolNode: the messages hold no AI message');
  }
  const answered = new Set<string>();
  for (const message of messages) {
    if (ToolMessage.isInstance(message)) answered.add(message.tool_call_id);
  }
  const calls = proposedCallsFromAIMessage(last).filter(
    (call) => typeof call.id !== 'string' || !answered.has(call.id),
  );
  return { calls, state: input, messageList };
}

function isMessageList(input: unknown): input is BaseMessage[] {
  return Array.isArray(input) && input.every(isBaseMessage);
}

function messagesOf(input: unknown): BaseMessage[] | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { messages } = input as { messages?: unknown };
  return isMessageList(messages) ? messages : undefined;
}

function lastAIMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message !== undefined && isAIMessage(message)) return message;
  }
  return undefined;
}
