import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { isPlainObject } from 'switchyard/tools';
import { unparsedArguments } from './unparsed-arguments.js';

/**
 * A model's message as graph state should keep it. A streamed message (an `AIMessageChunk`)
 * becomes a whole `AIMessage` in which each call whose argument text is not a whole JSON object
 * (a stream cut short, a length limit) carries that text, `{"__switchyard_unparsed_input": text}`,
 * in place of the arguments LangChain repaired (`{"a":1,` parses as `{"a":1}`).
 *
 * A reducer that turns chunks into messages, as `MessagesAnnotation`'s does, drops the raw text,
 * and a repaired call would then run. Marked arguments survive any reducer and checkpointer:
 * `switchyardToolNode` dispatches the text the model wrote, which Switchyard refuses with its
 * repair message (and LangGraph's `ToolNode` refuses the marked arguments too: they fail the
 * tool's schema). Any other message is returned as it is.
 *
 * @example
 * const agent = async (state) => ({ messages: [markIncompleteToolCalls(await model.invoke(state.messages))] });
 * // or, for createReactAgent: llm: model.pipe(markIncompleteToolCalls)
 */
export function markIncompleteToolCalls<Message extends BaseMessage>(
  message: Message,
): Message | AIMessage {
  if (!AIMessageChunk.isInstance(message)) return message;
  const rawText = new Map<string, string>();
  for (const chunk of message.tool_call_chunks ?? []) {
    if (typeof chunk.id === 'string') rawText.set(chunk.id, chunk.args ?? '');
  }
  const fields = Object.fromEntries(
    Object.entries(message).filter(
      ([key]) => key !== 'type' && key !== 'tool_call_chunks' && !key.startsWith('lc_'),
    ),
  );
  return new AIMessage({
    ...fields,
    tool_calls: (message.tool_calls ?? []).map((call) => marked(call, rawText)),
  });
}

function marked(call: ToolCall, rawText: ReadonlyMap<string, string>): ToolCall {
  const text = call.id === undefined ? undefined : rawText.get(call.id);
  if (text === undefined || isWholeObject(text)) return call;
  return { ...call, args: unparsedArguments(text) };
}

function isWholeObject(text: string): boolean {
  try {
    return isPlainObject(JSON.parse(text));
  } catch {
    return false;
  }
}
