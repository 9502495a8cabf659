import { isCancellation } from '../cancellation.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { exceptionResult, type ToolCallResult } from '../dispatch/result.js';

/**
 * What a bundled layer's own failure becomes, from the `catch` around its body: a cancellation is
 * rethrown (it always propagates), anything else is the call's `tool_middleware_exception` result,
 * blaming the layer by name, that the layers outside still see and record.
 *
 * @example
 * async function with_example(call, next) {
 *   try {
 *     return await next(call);
 *   } catch (error) {
 *     return layerFailure(call, error, 'with_example');
 *   }
 * }
 */
export function layerFailure(
  call: ToolCallEnvelope,
  error: unknown,
  layer: string,
): ToolCallResult {
  if (isCancellation(error, call.signal)) throw error;
  return exceptionResult(call, error, { layer });
}
