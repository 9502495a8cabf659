import { AbortLink, cancellationOf, type LinkOptions } from '../cancellation.js';
import { CancelledError, ToolTimeoutError } from '../errors.js';
import type { AnyTool } from '../tools/tool-registry.js';
import { backoffDelay } from './backoff.js';
import { CallExecution } from './call-execution.js';
import { checkCall, isRefusal } from './check-call.js';
import { classifyError } from './classify-error.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import { isTransient } from './error-taxonomy.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import type { ExecutionOutcome } from './executor.js';
import {
  executorFailure,
  okResult,
  scrubbed,
  scrubbedCancellation,
  timeoutResult,
  toolErrorResult,
  withServer,
} from './outcome-results.js';
import type { ToolCallResult } from './result.js';

export type { ExecuteCallDeps };

/**
 * The bottom of every middleware stack. It checks the call again, fail closed, whatever the layers
 * above did: the envelope must descend from the one the dispatcher built, the tool must exist and
 * be advertised, unparseable arguments never run, the tool must fit the execution policy the call
 * carries (`permission_denied` otherwise), and arguments a layer rewrote must satisfy the handler's
 * own schema. Then it runs the executor (with the tool's timeout and retry policy) and
 * builds the result.
 */
export function executeCall(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
): Promise<ToolCallResult> {
  // Not async: a call that passes its checks resolves with its execution's own promise, which saves
  // the hops an async wrapper would add to every call.
  try {
    const checked = checkCall(deps, call);
    return isRefusal(checked) ? Promise.resolve(checked) : runWithRetry(deps, call, checked);
  } catch (error) {
    return Promise.reject(error);
  }
}

async function runWithRetry(
  deps: ExecuteCallDeps,
  envelope: ToolCallEnvelope,
  tool: AnyTool,
): Promise<ToolCallResult> {
  // Results and events carry the canonical name, even when a layer used a provider alias.
  const call = envelope.toolName === tool.name ? envelope : { ...envelope, toolName: tool.name };
  const executorName: ExecutorName = tool.executor.kind;
  const server = tool.executor.kind === 'mcp_server' ? tool.executor.server : undefined;
  const executor = deps.executors.get(executorName);
  if (executor === undefined) {
    return executorFailure(
      call,
      executorName,
      0,
      1,
      `no ${executorName} executor is configured for tool "${tool.name}"`,
    );
  }
  const maxAttempts = tool.retry?.maxAttempts ?? 1;
  const started = deps.now();
  for (let attempt = 1; ; attempt += 1) {
    const abort = new AbortLink(
      call.signal,
      tool.timeoutMs === undefined ? undefined : timeLimit(tool, executor.timesExecution === true),
    );
    let outcome: ExecutionOutcome | undefined;
    // A call aborted while a layer held it (a consent prompt, a queue) never starts its handler.
    if (!abort.aborted) {
      try {
        outcome = await executor.execute(new CallExecution(deps, call, tool, abort));
      } finally {
        abort.dispose();
      }
    }
    const elapsed = deps.now() - started;
    if (outcome === undefined || abort.aborted) {
      if (!ToolTimeoutError.isInstance(abort.reason)) throw cancellationOf(abort.reason);
      if (attempt < maxAttempts && (await pause(deps, tool, attempt, call.signal))) continue;
      return withServer(
        timeoutResult(deps, call, executorName, elapsed, attempt, abort.reason),
        server,
      );
    }
    if (outcome.ok) {
      return withServer(
        okResult(deps, call, executorName, outcome.value, elapsed, attempt),
        server,
      );
    }
    if (outcome.executorFailure !== undefined) {
      return withServer(
        executorFailure(
          call,
          executorName,
          elapsed,
          attempt,
          scrubbed(deps, outcome.executorFailure.message),
          outcome.executorFailure.exitCode,
          outcome.executorFailure.errorCategory,
        ),
        server,
      );
    }
    const category = classifyError(outcome.error);
    if (category === 'cancelled') {
      const cancellation = cancellationOf(outcome.error);
      throw CancelledError.isInstance(cancellation)
        ? scrubbedCancellation(deps, cancellation)
        : cancellation;
    }
    if (
      attempt < maxAttempts &&
      isTransient(category) &&
      (await pause(deps, tool, attempt, call.signal))
    ) {
      continue;
    }
    return withServer(
      toolErrorResult(deps, call, executorName, elapsed, attempt, outcome.error, category),
      server,
    );
  }
}

/** Waits before the next attempt; false when the tool has no retry policy. */
async function pause(
  deps: ExecuteCallDeps,
  tool: AnyTool,
  attempt: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (tool.retry === undefined) return false;
  try {
    await deps.sleep(backoffDelay(tool.retry, attempt, deps.random), signal);
  } catch (reason) {
    throw cancellationOf(reason);
  }
  return true;
}

/** The tool's own time limit: its abort reason is a `ToolTimeoutError` naming the tool. */
function timeLimit(tool: AnyTool, deferTimeout: boolean): LinkOptions {
  const timeoutMs = tool.timeoutMs!;
  return {
    timeoutMs,
    timeoutReason: () => new ToolTimeoutError(tool.name, timeoutMs),
    deferTimeout,
  };
}
