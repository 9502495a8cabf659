import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { ProposedCall } from 'switchyard';
import { dispatchedArguments } from './unparsed-arguments.js';

interface Positioned {
  readonly call: ProposedCall;
  readonly index: number;
}

/**
 * The calls an AI message proposes, in the order the model emitted them, with the model's own
 * argument text wherever LangChain kept it. A streamed message (a chunk) keeps each call's raw
 * text in `tool_call_chunks`: LangChain's parsed `tool_calls` repair truncated JSON (`{"a":1,`
 * becomes `{"a":1}`), so the raw text is what Switchyard must judge. A whole message keeps the
 * text for calls that failed to parse (`invalid_tool_calls`) and for calls that
 * `markIncompleteToolCalls` marked.
 */
export function proposedCallsFromAIMessage(message: AIMessage | AIMessageChunk): ProposedCall[] {
  const chunks = (message as AIMessageChunk).tool_call_chunks ?? [];
  if (chunks.length > 0) {
    return chunks
      .map((chunk, position) => ({
        call: { id: chunk.id, name: chunk.name ?? '', arguments: chunk.args ?? '' },
        index: chunk.index ?? position,
      }))
      .sort(byIndex)
      .map(({ call }) => call);
  }
  const parsed: Positioned[] = (message.tool_calls ?? []).map((call, position) => ({
    call: proposedCallOf(call),
    index: position,
  }));
  const invalid: Positioned[] = (message.invalid_tool_calls ?? []).map((call, position) => ({
    call: { id: call.id, name: call.name ?? '', arguments: call.args ?? '' },
    index: (call as { index?: number }).index ?? parsed.length + position,
  }));
  return [...parsed, ...invalid].sort(byIndex).map(({ call }) => call);
}

/** One parsed call (a message's or a `Send`'s `lg_tool_call`) as Switchyard receives it. */
export function proposedCallOf(call: ToolCall): ProposedCall {
  return {
    id: call.id,
    name: call.name,
    arguments: dispatchedArguments(call.args) as ProposedCall['arguments'],
  };
}

function byIndex(left: Positioned, right: Positioned): number {
  return left.index - right.index;
}
