import type { ToolCallResult } from 'switchyard';

/** What the AI SDK sends back to the model for one tool result (its `ToolResultOutput`). */
export type ModelOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'error-text'; readonly value: string };

/**
 * Switchyard's own model-visible text for a result: the observation, marked as an error when the
 * call failed, so the model reads the same repair message it would read from Switchyard's loop.
 */
export function toModelOutput(result: ToolCallResult): ModelOutput {
  return result.ok
    ? { type: 'text', value: result.observation }
    : { type: 'error-text', value: result.observation };
}
