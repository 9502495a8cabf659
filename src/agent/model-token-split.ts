import type { ToolCallResult } from '../dispatch/result.js';

/**
 * The turn's results, each with its share of the model turn's tokens in `usage.modelTokens`. The
 * rule: the turn's input and output tokens (OTel GenAI `gen_ai.usage.input_tokens` +
 * `gen_ai.usage.output_tokens`) split equally across the calls the turn proposed, in whole tokens,
 * the first calls in planner order taking one more each until the shares add up to the total. A
 * call's own size does not weigh: the model's prompt, which is most of a turn's tokens, served
 * every call alike. Unchanged when the provider reported no usage or the turn made no call.
 */
export function withModelTokens(
  results: readonly ToolCallResult[],
  usage: { readonly inputTokens: number; readonly outputTokens: number } | null,
): readonly ToolCallResult[] {
  if (usage === null || results.length === 0) return results;
  const total = usage.inputTokens + usage.outputTokens;
  const share = Math.floor(total / results.length);
  const remainder = total - share * results.length;
  return results.map((result, index) => ({
    ...result,
    usage: { ...result.usage, modelTokens: share + (index < remainder ? 1 : 0) },
  }));
}
