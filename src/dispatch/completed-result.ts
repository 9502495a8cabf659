import type { ToolCallEnvelope } from './envelope.js';
import type { ToolCallResult } from './result.js';

type Fields = Record<string, unknown>;

function isComplete(result: Fields): boolean {
  return (
    typeof result.toolCallId === 'string' &&
    typeof result.renderedResult === 'string' &&
    typeof result.observation === 'string' &&
    (result.error === null || typeof result.error === 'string') &&
    (result.errorCategory === null || typeof result.errorCategory === 'string') &&
    typeof result.emitOrder === 'number' &&
    typeof result.arguments === 'object' &&
    result.arguments !== null &&
    'result' in result &&
    'executor' in result &&
    'executionDurationMs' in result
  );
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The result with every field a layer may read, for results that keep the contract (`ok`,
 * `status`, `toolName`) but were built by hand without the rest: a failure's `error` and
 * `errorCategory` default to its status, the texts to the error (or `''`), the identity to the
 * call's. A complete result is returned as it is (the common case costs a few type checks).
 */
export function completedResult(result: ToolCallResult, call: ToolCallEnvelope): ToolCallResult {
  const fields = result as unknown as Fields;
  if (isComplete(fields)) return result;
  const error = result.ok ? text(fields.error) : (text(fields.error) ?? result.status);
  const rendered = text(fields.renderedResult) ?? (result.ok ? '' : (error ?? ''));
  return {
    ...result,
    toolCallId: text(fields.toolCallId) ?? call.callId,
    arguments:
      typeof fields.arguments === 'object' && fields.arguments !== null
        ? result.arguments
        : call.toolArgs,
    result: 'result' in fields ? result.result : null,
    renderedResult: rendered,
    observation: text(fields.observation) ?? rendered,
    error,
    errorCategory: text(fields.errorCategory) ?? (result.ok ? null : result.status),
    executor: 'executor' in fields ? result.executor : null,
    executionDurationMs: 'executionDurationMs' in fields ? result.executionDurationMs : null,
    emitOrder: typeof fields.emitOrder === 'number' ? result.emitOrder : call.turn.emitOrder,
  };
}
