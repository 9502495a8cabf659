import type { ToolCallResult } from '../dispatch/result.js';

/**
 * The turn's results, each with its share of the model turn's tokens: `usage.modelInputTokens` and
 * `usage.modelOutputTokens` (OTel GenAI `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`),
 * and their sum `usage.modelTokens`. The rule: the turn's input tokens, and apart its output tokens,
 * split equally across the calls the turn proposed, in whole tokens, the first calls in planner
 * order taking one more each until the shares add up to the total (kept apart because they are
 * priced apart). A
 * call's own size does not weigh: the model's prompt, which is most of a turn's tokens, served
 * every call alike. Unchanged when the provider reported no usage or the turn made no call.
 */
export function withModelTokens(
  results: readonly ToolCallResult[],
  usage: { readonly inputTokens: number; readonly outputTokens: number } | null,
): readonly ToolCallResult[] {
  if (usage === null || results.length === 0) return results;
  const input = equalShares(usage.inputTokens, results.length);
  const output = equalShares(usage.outputTokens, results.length);
  return results.map((result, index) => {
    const modelInputTokens = input(index);
    const modelOutputTokens = output(index);
    return {
      ...result,
      usage: {
        ...result.usage,
        modelTokens: modelInputTokens + modelOutputTokens,
        modelInputTokens,
        modelOutputTokens,
      },
    };
  });
}

/** The share of `total` of the call at `index`, of `count` calls: whole, the first ones taking the rest. */
function equalShares(total: number, count: number): (index: number) => number {
  const share = Math.floor(total / count);
  const remainder = total - share * count;
  return (index) => share + (index < remainder ? 1 : 0);
}
