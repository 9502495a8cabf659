import { modelTokenShares } from '../dispatch/model-token-share.js';
import type { ToolCallResult } from '../dispatch/result.js';

/**
 * The turn's results, each with its share of the model turn's tokens (`modelTokenShares`, the
 * rule the calls' envelopes were given theirs by): `usage.modelInputTokens` and
 * `usage.modelOutputTokens` (OTel GenAI `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`),
 * and their sum `usage.modelTokens`. Unchanged when the provider reported no usage or the turn
 * made no call.
 */
export function withModelTokens(
  results: readonly ToolCallResult[],
  usage: { readonly inputTokens: number; readonly outputTokens: number } | null,
): readonly ToolCallResult[] {
  if (usage === null || results.length === 0) return results;
  const shareOf = modelTokenShares(usage, results.length);
  return results.map((result, index) => {
    const { inputTokens, outputTokens } = shareOf(index);
    return {
      ...result,
      usage: {
        ...result.usage,
        modelTokens: inputTokens + outputTokens,
        modelInputTokens: inputTokens,
        modelOutputTokens: outputTokens,
      },
    };
  });
}
