import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError } from '../errors.js';
import { checkFunction } from '../option-checks.js';
import { attachLayer } from './attach-audit.js';

/** Writes the user-facing one-liner of a finished call. */
export type SummaryFormat = (
  call: ToolCallEnvelope,
  result: ToolCallResult,
) => string | null | undefined | Promise<string | null | undefined>;

const FACTORY = 'withSummary';
const LAYER = 'with_summary';

/**
 * Puts a user-facing one-liner on `audit.summary` (the ACP title / OpenAI summary slot) after the
 * call: `format(call, result)`. It sees every result, short-circuits of inner layers included.
 * A format that throws or returns an empty or non-string value leaves the result as it was, with
 * no layer entry. Placed outside `withRequiredReason`, its summary replaces the model's reason.
 *
 * Layer entry: `{ name: 'with_summary', status: 'ok' }`.
 *
 * @example
 * withSummary((call, result) => `${call.toolName}: ${result.ok ? 'done' : result.error}`);
 */
export function withSummary(format: SummaryFormat): ToolCaller {
  checkFunction(FACTORY, 'format', format);

  async function with_summary(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    const result = await next(call);
    let text: unknown;
    try {
      text = await format(call, result);
    } catch (error) {
      if (CancelledError.isInstance(error)) throw error;
      return result;
    }
    if (typeof text !== 'string' || text === '') return result;
    return attachLayer(result, { name: LAYER, status: 'ok' }, { summary: text });
  }

  return with_summary;
}
