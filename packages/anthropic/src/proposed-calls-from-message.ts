import { type ProposedCall, toProposedCall } from 'switchyard';

/**
 * Reads the client tool calls of a non-streamed Messages API response: every `tool_use` block,
 * in order, as a `ProposedCall` (`id`, `name` as the model wrote it — an alias resolves in the
 * dispatcher — and `input` as the arguments). Hosted `server_tool_use` blocks are left out: the
 * API ran them already. Blocks that are not calls are skipped.
 *
 * @param message anything with the `content` blocks of a `Message` (an SDK result or parsed JSON).
 * @example
 * const message = await client.messages.create({ model, max_tokens: 1024, messages, tools });
 * const results = await dispatchTurn(proposedCallsFromMessage(message), { dispatcher });
 */
export function proposedCallsFromMessage(message: {
  readonly content: readonly unknown[];
}): ProposedCall[] {
  const calls: ProposedCall[] = [];
  for (const block of message.content) {
    if ((block as { type?: unknown } | null)?.type !== 'tool_use') continue;
    const call = toProposedCall(block);
    if (call !== null) calls.push(call);
  }
  return calls;
}
