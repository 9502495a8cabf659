import type { Anthropic } from '@anthropic-ai/sdk';
import type { ToolCallResult } from 'switchyard';

/**
 * Maps dispatched results onto Messages API `tool_result` blocks for the next `user` message:
 * `tool_use_id` is the call id, `content` the result's `observation` (what the model should read,
 * including how to repair a failed call), `is_error` true when the call did not succeed. Order
 * is kept: pass the results in planner order (as a turn returns them).
 *
 * @returns one `ToolResultBlockParam` per result.
 * @example
 * const results = await dispatchTurn(calls, { dispatcher });
 * messages.push({ role: 'user', content: toAnthropicToolResults(results) });
 */
export function toAnthropicToolResults(
  results: readonly ToolCallResult[],
): Anthropic.Messages.ToolResultBlockParam[] {
  return results.map((result) => ({
    type: 'tool_result',
    tool_use_id: result.toolCallId,
    content: result.observation,
    is_error: !result.ok,
  }));
}
