import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { errorMessage } from '../errors.js';

/** The result standing in for a dispatch that rejected (which the dispatcher never should). */
export function exceptionResultFor(
  call: ProposedCall,
  emitOrder: number,
  error: unknown,
): ToolCallResult {
  const message = errorMessage(error);
  return {
    ok: false,
    status: 'exception',
    toolName: typeof call.name === 'string' ? call.name : '',
    toolCallId: typeof call.id === 'string' ? call.id : '',
    arguments: {},
    result: null,
    renderedResult: message,
    observation: `[error dispatching ${String(call.name)}]\n${message}`,
    error: message,
    errorCategory: 'tool_parallel_dispatch_exception',
    executor: null,
    executionDurationMs: null,
    emitOrder,
  };
}
