/** A model turn's tokens, or one call's share of them, input (prompt) and output apart. */
export interface ModelTokens {
  /** Input (prompt) tokens; OTel GenAI `gen_ai.usage.input_tokens`. */
  readonly inputTokens: number;
  /** Output (completion) tokens; OTel GenAI `gen_ai.usage.output_tokens`. */
  readonly outputTokens: number;
}

/**
 * The shares of a model turn's tokens among the `callCount` calls it proposed: the turn's input
 * tokens, and apart its output tokens (they are priced apart), split equally in whole tokens, the
 * first calls in planner order taking one more each until the shares add up to the turn's total.
 * A call's own size does not weigh: the model's prompt, most of a turn's tokens, served every call
 * alike. Returns the share of the call at `emitOrder` (0-based; past the count, a share of zero).
 */
export function modelTokenShares(
  usage: ModelTokens,
  callCount: number,
): (emitOrder: number) => ModelTokens {
  const input = equalShares(usage.inputTokens, callCount);
  const output = equalShares(usage.outputTokens, callCount);
  return (emitOrder) => ({ inputTokens: input(emitOrder), outputTokens: output(emitOrder) });
}

/** The share of `total` of the call at `index`, of `count` calls: whole, the first ones taking the rest. */
function equalShares(total: number, count: number): (index: number) => number {
  if (count <= 0) return () => 0;
  const share = Math.floor(total / count);
  const remainder = total - share * count;
  return (index) => (index >= count ? 0 : share + (index < remainder ? 1 : 0));
}
