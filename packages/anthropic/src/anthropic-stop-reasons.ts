/**
 * Stop reasons after which calls still open may be finalised. `pause_turn` is the API pausing a
 * long turn of hosted tools: what it sent so far is whole. Every other reason — `max_tokens`,
 * `refusal`, `model_context_window_exceeded`, and any word this version does not know — means
 * the output may have been cut, so open calls are retracted rather than run.
 */
const SAFE_STOP_REASONS: ReadonlySet<string> = new Set([
  'tool_use',
  'end_turn',
  'stop_sequence',
  'pause_turn',
]);

/**
 * True when an Anthropic `stop_reason` ends the message normally (`tool_use`, `end_turn`,
 * `stop_sequence`, `pause_turn`), false when it may have cut the output short.
 *
 * @example
 * isSafeAnthropicStop('tool_use'); // true
 * isSafeAnthropicStop('max_tokens'); // false
 */
export function isSafeAnthropicStop(stopReason: string): boolean {
  return SAFE_STOP_REASONS.has(stopReason);
}
