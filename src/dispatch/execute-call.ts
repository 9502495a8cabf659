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
import { EXECUTE_NOW, type ExecutionOutcome, type Executor } from './executor.js';
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
 * builds the result: the result itself when the executor answered at once (an inline handler that
 * returned synchronously), a promise otherwise. Throws (or rejects with) the cancellation of a
 * cancelled call.
 */
export function executeCallNow(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
): ToolCallResult | Promise<ToolCallResult> {
  const checked = checkCall(deps, call);
  if (isRefusal(checked)) return checked;
  const tool = checked;
  const executorName: ExecutorName = tool.executor.kind;
  // Results and events carry the canonical name, even when a layer used a provider alias.
  const canonical = call.toolName === tool.name ? call : { ...call, toolName: tool.name };
  const executor = deps.executors.get(executorName);
  if (executor === undefined) {
    return executorFailure(
      canonical,
      executorName,
      0,
      1,
      `no ${executorName} executor is configured for tool "${tool.name}"`,
    );
  }
  return new CallAttempts(deps, canonical, tool, executor).run();
}

/** Another attempt is due (a transient failure or a timeout, under a retry policy). */
const RETRY = Symbol('retry');

/**
 * The attempts of one call under its tool's timeout and retry policy (a class: the common path
 * allocates no closures). The first attempt runs without a promise of its own; only a pending
 * execution or a retry makes the rest asynchronous.
 */
class CallAttempts {
  private readonly started: number;
  private attempt = 1;
  private readonly maxAttempts: number;
  private readonly server: string | undefined;

  constructor(
    private readonly deps: ExecuteCallDeps,
    private readonly call: ToolCallEnvelope,
    private readonly tool: AnyTool,
    private readonly executor: Executor,
  ) {
    this.maxAttempts = tool.retry?.maxAttempts ?? 1;
    this.server = tool.executor.kind === 'mcp_server' ? tool.executor.server : undefined;
    this.started = deps.now();
  }

  run(): ToolCallResult | Promise<ToolCallResult> {
    const { call, tool, executor } = this;
    // Nothing can abort a call without a signal or a time limit: it needs no link.
    const abort =
      call.signal === undefined && tool.timeoutMs === undefined
        ? null
        : new AbortLink(
            call.signal,
            tool.timeoutMs === undefined
              ? undefined
              : timeLimit(tool, executor.timesExecution === true),
          );
    // A call aborted while a layer held it (a consent prompt, a queue) never starts its handler.
    if (abort?.aborted) return this.next(this.verdict(abort, undefined));
    let pending: ExecutionOutcome | Promise<ExecutionOutcome>;
    try {
      const execution = new CallExecution(this.deps, call, tool, abort);
      const now = (executor as Partial<Record<typeof EXECUTE_NOW, Executor['execute']>>)[
        EXECUTE_NOW
      ];
      pending = now === undefined ? executor.execute(execution) : now.call(executor, execution);
    } catch (error) {
      abort?.dispose();
      throw error;
    }
    if (!(pending instanceof Promise)) {
      abort?.dispose();
      return this.next(this.verdict(abort, pending));
    }
    return pending.then(
      (outcome) => {
        abort?.dispose();
        return this.next(this.verdict(abort, outcome));
      },
      (error: unknown) => {
        abort?.dispose();
        throw error;
      },
    );
  }

  /** The result, or the next attempt after the retry policy's pause. */
  private next(verdict: ToolCallResult | typeof RETRY): ToolCallResult | Promise<ToolCallResult> {
    return verdict === RETRY ? this.retry() : verdict;
  }

  private async retry(): Promise<ToolCallResult> {
    const retry = this.tool.retry!;
    try {
      await this.deps.sleep(backoffDelay(retry, this.attempt, this.deps.random), this.call.signal);
    } catch (reason) {
      throw cancellationOf(reason);
    }
    this.attempt += 1;
    return this.run();
  }

  /** What one attempt's outcome means: a result, another attempt, or a cancellation (thrown). */
  private verdict(
    abort: AbortLink | null,
    outcome: ExecutionOutcome | undefined,
  ): ToolCallResult | typeof RETRY {
    const { deps, call, attempt, server } = this;
    const executorName = this.tool.executor.kind;
    const elapsed = deps.now() - this.started;
    const mayRetry = attempt < this.maxAttempts && this.tool.retry !== undefined;
    if (abort !== null && (outcome === undefined || abort.aborted)) {
      if (!ToolTimeoutError.isInstance(abort.reason)) throw cancellationOf(abort.reason);
      if (mayRetry) return RETRY;
      return withServer(
        timeoutResult(deps, call, executorName, elapsed, attempt, abort.reason),
        server,
      );
    }
    if (outcome === undefined) throw new CancelledError();
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
    if (mayRetry && isTransient(category)) return RETRY;
    return withServer(
      toolErrorResult(deps, call, executorName, elapsed, attempt, outcome.error, category),
      server,
    );
  }
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
