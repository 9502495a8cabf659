import { CancelledError, errorMessage } from '../errors.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import type { ExecutorFailure } from './executor.js';
import { boundRendered, contentText, renderValue } from './render-output.js';
import type { ContentBlock, ToolCallResult } from './result.js';
import { isToolOutput } from './tool-output.js';

// The results built from what an executor returned: the tool's value, its error, a timeout, or the
// executor's own failure. Secrets the dispatcher injected are scrubbed from each.

/** How an attempt ended, besides its outcome: what every result built from it carries. */
export interface AttemptEnd {
  readonly deps: ExecuteCallDeps;
  readonly call: ToolCallEnvelope;
  readonly executor: ExecutorName;
  /** Since the call's first attempt started. */
  readonly elapsedMs: number;
  /** Attempts made, this one included. */
  readonly attempts: number;
}

/** Names the MCP server that ran a call in its audit (ACP's `{ kind: 'mcp_server', serverName }`). */
export function withServer(result: ToolCallResult, server: string | undefined): ToolCallResult {
  if (server === undefined) return result;
  return { ...result, audit: { executor: { kind: 'mcp_server', serverName: server } } };
}

export function okResult(end: AttemptEnd, returned: unknown): ToolCallResult {
  const { deps, call } = end;
  let value = returned;
  let content: readonly ContentBlock[] | undefined;
  let isError = false;
  if (isToolOutput(returned)) {
    value = returned.value;
    content = returned.content;
    isError = returned.isError === true;
  }
  const { scrubber } = deps;
  if (scrubber !== null) {
    value = scrubber.value(value);
    if (content !== undefined) content = scrubber.value(content) as readonly ContentBlock[];
  }
  let full = content === undefined ? renderValue(value) : contentText(content);
  // Before bounding: the artifact store receives the full text. The text is scrubbed too, for
  // what rendering adds (a `toJSON`, a `toString`).
  if (scrubber !== null) full = scrubber.text(full);
  const bounded =
    full.length <= deps.maxRenderedChars
      ? null
      : boundRendered(full, call.callId, deps.maxRenderedChars, deps.artifactStore);
  const text = bounded === null ? full : bounded.text;
  const result: Mutable<ToolCallResult> = {
    ok: !isError,
    status: isError ? 'error' : 'ok',
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: value,
    renderedResult: text,
    observation: isError
      ? `[error from ${call.toolName}]\n${text}\n[end of ${call.toolName} error]`
      : text,
    error: isError ? text : null,
    errorCategory: isError ? 'tool_error' : null,
    executor: end.executor,
    executionDurationMs: end.elapsedMs,
    emitOrder: call.turn.emitOrder,
    attempts: end.attempts,
  };
  // Assigned, not spread: spreading on the hot path costs more than the rest of the result.
  if (content !== undefined) result.content = content;
  if (bounded?.artifact) result.artifacts = [bounded.artifact];
  return result;
}

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };

export function failure(
  end: AttemptEnd,
  fields: { status: string; error: string; errorCategory: string; result?: unknown },
): ToolCallResult {
  const { call } = end;
  return {
    ok: false,
    status: fields.status,
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: fields.result ?? null,
    renderedResult: fields.error,
    observation: `[error from ${call.toolName}]\n${fields.error}\n[end of ${call.toolName} error]`,
    error: fields.error,
    errorCategory: fields.errorCategory,
    executor: end.executor,
    executionDurationMs: end.elapsedMs,
    emitOrder: call.turn.emitOrder,
    attempts: end.attempts,
  };
}

/** `text` without the injected secrets, when the dispatcher scrubs them. */
export function scrubbed(deps: ExecuteCallDeps, text: string): string {
  return deps.scrubber === null ? text : deps.scrubber.text(text);
}

/** A tool's own cancellation, its message scrubbed (and its cause dropped when it quoted a secret). */
export function scrubbedCancellation(deps: ExecuteCallDeps, error: CancelledError): CancelledError {
  const message = scrubbed(deps, error.message);
  return message === error.message ? error : new CancelledError(message);
}

/** What the tool threw, as `classifyError` classified it. */
export function toolErrorResult(
  end: AttemptEnd,
  error: { readonly thrown: unknown; readonly category: string },
): ToolCallResult {
  return failure(end, {
    status: 'error',
    error: scrubbed(end.deps, errorMessage(error.thrown)),
    errorCategory: error.category === 'generic' ? 'tool_error' : error.category,
  });
}

export function timeoutResult(end: AttemptEnd, reason: unknown): ToolCallResult {
  return failure(end, {
    status: 'timeout',
    error: scrubbed(end.deps, errorMessage(reason)),
    errorCategory: 'timeout',
  });
}

export function executorFailure(
  end: AttemptEnd,
  { message, exitCode, errorCategory = 'executor_error', inDoubt = false }: ExecutorFailure,
): ToolCallResult {
  return failure(end, {
    status: inDoubt ? 'in_doubt' : 'executor_error',
    error: message,
    errorCategory: inDoubt ? 'in_doubt' : errorCategory,
    ...(exitCode === undefined ? {} : { result: { exitCode } }),
  });
}
