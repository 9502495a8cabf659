import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import { type ProposedCall, toProposedCall } from 'switchyard';

/**
 * The calls of a non-streamed OpenAI answer, ready for `dispatcher.dispatch(call, { emitOrder })`
 * in the order given. For when you make the request yourself, without the adapters and the
 * detector; arguments stay JSON text, which the dispatcher parses and validates (fail closed).
 */

/**
 * The function calls of a chat completion's first choice, in the order the model wrote them.
 * Custom-tool calls (not function calls) are left out.
 *
 * @returns `{id, name, arguments}` per call; `[]` when the message has no calls.
 * @example
 * const completion = await client.chat.completions.create({ model, messages, tools });
 * const calls = proposedCallsFromChatCompletion(completion);
 * const results = await Promise.all(calls.map((call, emitOrder) => dispatcher.dispatch(call, { emitOrder })));
 */
export function proposedCallsFromChatCompletion(
  completion: Pick<ChatCompletion, 'choices'>,
): ProposedCall[] {
  const message = completion.choices?.find((choice) => choice.index === 0)?.message;
  return proposed((message?.tool_calls ?? []).filter((call) => call.type === 'function'));
}

/**
 * The `function_call` items of a response, in output order, with `call_id` as the call id.
 * Items for tools OpenAI ran itself (web search, file search, MCP, …) are left out: there is
 * nothing to dispatch for them.
 *
 * @returns `{id, name, arguments}` per call; `[]` when the response has none.
 * @example
 * const response = await client.responses.create({ model, input, tools });
 * const calls = proposedCallsFromResponse(response);
 */
export function proposedCallsFromResponse(response: Pick<Response, 'output'>): ProposedCall[] {
  return proposed((response.output ?? []).filter((item) => item.type === 'function_call'));
}

function proposed(raw: readonly unknown[]): ProposedCall[] {
  const calls: ProposedCall[] = [];
  for (const item of raw) {
    const call = toProposedCall(item);
    if (call !== null) calls.push(call);
  }
  return calls;
}
