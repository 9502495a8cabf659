import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { cancelledResultFrom, type ToolCallResult } from '../dispatch/result.js';
import { CancelledError } from '../errors.js';

/**
 * The `cancelled` result an observing layer (audit, telemetry) records for a call whose `next`
 * threw `error`, before it rethrows it (cancellation always propagates), with the audit inner
 * layers attached to the cancellation; undefined when `error` is not a cancellation. Layers call
 * it from their own `catch`, so the common path pays for no wrapper promise and no closure.
 *
 * @example
 * try {
 *   result = await next(call);
 * } catch (error) {
 *   const cancelled = cancelledResultOf(call, error);
 *   if (cancelled !== undefined) await record(call, cancelled);
 *   throw error;
 * }
 */
export function cancelledResultOf(
  call: ToolCallEnvelope,
  error: unknown,
): ToolCallResult | undefined {
  return CancelledError.isInstance(error) ? cancelledResultFrom(call, error) : undefined;
}
