import { type BaseMessage, isBaseMessage, ToolMessage } from '@langchain/core/messages';
import { Command, isCommand, type Send } from '@langchain/langgraph';
import type { ToolCallResult } from 'switchyard';

/**
 * A tool node's output as LangGraph's `ToolNode` builds it from one answer per call (a
 * `ToolMessage` or a tool's `Command`): `{ messages }` (or the list, for a list input) when no
 * tool returned a `Command`; otherwise the answers in order, each message wrapped, the commands as
 * they are, and every `Command.PARENT` that only sends (`goto: Send[]`) merged into one at the end.
 */
export function toolNodeOutput(answers: readonly (ToolMessage | Command)[], messageList: boolean) {
  if (!answers.some(isCommand)) return messageList ? [...answers] : { messages: [...answers] };
  const combined: (Command | BaseMessage[] | { messages: BaseMessage[] })[] = [];
  let parentSends: Send[] | undefined;
  for (const answer of answers) {
    if (!isCommand(answer)) combined.push(messageList ? [answer] : { messages: [answer] });
    else if (answer.graph === Command.PARENT && isSendList(answer.goto)) {
      parentSends = [...(parentSends ?? []), ...answer.goto];
    } else combined.push(answer);
  }
  if (parentSends !== undefined) {
    combined.push(new Command({ graph: Command.PARENT, goto: parentSends }));
  }
  return combined;
}

/**
 * One call's answer: the tool's `Command` when it returned one, or a `ToolMessage` whose content
 * is Switchyard's observation (the tool's text, bounded and scrubbed, or the error and how to
 * repair the call), `status: 'error'` when the call failed, and the tool's own `artifact`.
 */
export function answerOf(result: ToolCallResult): ToolMessage | Command {
  const { result: value } = result;
  if (result.ok && isCommand(value)) return value;
  // The tool's own message, when Switchyard's observation is its text as it stands (not bounded,
  // scrubbed or refused): what ToolNode would hand on, without building a second one.
  if (
    result.ok &&
    ToolMessage.isInstance(value) &&
    value.content === result.observation &&
    value.tool_call_id === result.toolCallId &&
    value.status !== 'error'
  ) {
    return value;
  }
  return toToolMessage(result);
}

/**
 * One result as the message LangChain sends back to the model: Switchyard's observation as its
 * content, `status: 'error'` when the call failed, and, when the tool answered with a
 * `ToolMessage`, that message's `artifact` and `metadata`.
 */
export function toToolMessage(result: ToolCallResult): ToolMessage {
  const own = isBaseMessage(result.result) && result.result.getType() === 'tool';
  const toolMessage = own ? (result.result as ToolMessage) : undefined;
  return new ToolMessage({
    content: result.observation,
    tool_call_id: result.toolCallId,
    name: result.toolName,
    status: result.ok ? 'success' : 'error',
    artifact: toolMessage?.artifact,
    ...(toolMessage?.metadata === undefined ? {} : { metadata: toolMessage.metadata }),
  });
}

function isSendList(goto: unknown): goto is Send[] {
  return (
    Array.isArray(goto) &&
    goto.every((target) => typeof target === 'object' && target?.lg_name === 'Send')
  );
}
