import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { cancelledResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next } from '../dispatch/tool-caller.js';
import { CancelledError, errorMessage } from '../errors.js';

/**
 * Calls `next`; when the call is cancelled, lets an observing layer (audit, telemetry) record the
 * `cancelled` result before the cancellation propagates, as it always must.
 */
export async function nextObservingCancellation(
  call: ToolCallEnvelope,
  next: Next,
  onCancelled: (result: ToolCallResult) => unknown,
): Promise<ToolCallResult> {
  try {
    return await next(call);
  } catch (error) {
    if (CancelledError.isInstance(error))
      await onCancelled(cancelledResult(call, errorMessage(error)));
    throw error;
  }
}
