import { AbortLink, cancellationOf, type LinkOptions } from '../cancellation.js';
import { CancelledError, ToolTimeoutError } from '../errors.js';
import type { JsonObject } from '../tools/json.js';
import { CostTally, type ToolCost } from '../tools/tool-cost.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import { backoffDelay } from './backoff.js';
import { callStateOf } from './call-state.js';
import { classifyError } from './classify-error.js';
import type { ToolCallEnvelope, TurnInfo } from './envelope.js';
import { isTransient } from './error-taxonomy.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import type { ExecutionOutcome, ExecutionRequest, Executor, RuntimeValues } from './executor.js';
import { runInline } from './inline-executor.js';
import {
  type AttemptEnd,
  executorFailure,
  okResult,
  scrubbed,
  scrubbedCancellation,
  timeoutResult,
  toolErrorResult,
  withServer,
} from './outcome-results.js';
import type { ToolCallResult } from './result.js';

/** Another attempt is due (a transient failure or a timeout, under a retry policy). */
const RETRY = Symbol('retry');

/** What an attempt runs. */
export interface AttemptOptions {
  readonly deps: ExecuteCallDeps;
  /** The call, under its tool's canonical name. */
  readonly call: ToolCallEnvelope;
  readonly tool: AnyTool;
  /** Where the handler runs; null: inline, on this thread (`runInline`). */
  readonly executor: Executor | null;
  /** 1 for the first attempt. Default 1. */
  readonly attempt?: number;
  /** When the first attempt started. Default: now. */
  readonly started?: number;
  /** What earlier attempts of the call reported they spent. */
  readonly costs?: CostTally | null;
}

/**
 * One attempt at a call under its tool's timeout and retry policy, and the execution request its
 * executor receives: one object per attempt, no closures. A retry is a new attempt (a handler of an
 * earlier attempt that ignored its signal keeps seeing that attempt's signal, aborted).
 */
export class CallAttempt implements ExecutionRequest {
  readonly tool: AnyTool;
  readonly args: JsonObject;
  readonly callId: string;
  readonly turn: TurnInfo;
  readonly values: RuntimeValues;
  readonly #deps: ExecuteCallDeps;
  readonly #call: ToolCallEnvelope;
  readonly #executor: Executor | null;
  readonly #attempt: number;
  /** When the first attempt started: results report the time of every attempt together. */
  readonly #started: number;
  /** What the call's attempts reported they spent; null until one reports. */
  #costs: CostTally | null;
  /**
   * The attempt's abort state. A time limit makes it when the attempt runs; a call with only a
   * signal follows that signal from the first read of the attempt's abort (`signal`,
   * `whenAborted`), so a handler that answers at once without reading it adds no listener.
   */
  #abort: AbortLink | null = null;
  /** The attempt is over: an abort state made now follows nothing. */
  #ended = false;

  constructor({
    deps,
    call,
    tool,
    executor,
    attempt = 1,
    started = deps.now(),
    costs = null,
  }: AttemptOptions) {
    this.tool = tool;
    this.args = call.toolArgs;
    this.callId = call.callId;
    this.turn = call.turn;
    this.values = valuesFor(deps, call);
    this.#deps = deps;
    this.#call = call;
    this.#executor = executor;
    this.#attempt = attempt;
    this.#started = started;
    this.#costs = costs;
  }

  get signal(): AbortSignal {
    return this.#link().signal;
  }

  /** The journal's key; unset otherwise, and the handler's runtime derives one when asked. */
  get idempotencyKey(): string | undefined {
    return this.#call.idempotencyKey;
  }

  get abortable(): boolean {
    return this.#abort === null ? this.#call.signal !== undefined : this.#abort.abortable;
  }

  whenAborted(): Promise<never> {
    return this.#link().whenAborted();
  }

  started(): void {
    this.#abort?.armTimeout();
  }

  emit(progress: ToolProgress): void {
    const scrubber = this.#deps.scrubber;
    this.#deps.onProgress(
      this.#call,
      scrubber === null ? progress : (scrubber.value(progress) as ToolProgress),
    );
  }

  reportCost(cost: ToolCost): void {
    this.#costs ??= new CostTally();
    this.#costs.add(cost);
  }

  #link(): AbortLink {
    this.#abort ??= new AbortLink(this.#ended ? undefined : this.#call.signal);
    return this.#abort;
  }

  /**
   * True once the attempt's abort fired. A signal that aborted unread (before the attempt, or
   * during a handler that answered at once) is linked now, for its reason.
   */
  #aborted(): boolean {
    const { signal } = this.#call;
    if (this.#abort === null && signal?.aborted) this.#abort = new AbortLink(signal);
    return this.#abort?.aborted === true;
  }

  /** Stops following the call's signal and the time limit. */
  #end(): void {
    this.#ended = true;
    this.#abort?.dispose();
  }

  /**
   * The call's result; throws or rejects with the call's cancellation. The result itself, not a
   * promise, only when an inline handler answered at once (`runInline`): the dispatcher's one fast
   * path (see `Dispatcher.dispatchNow`).
   */
  run(): ToolCallResult | Promise<ToolCallResult> {
    const call = this.#call;
    const { tool } = this;
    const executor = this.#executor;
    if (tool.timeoutMs !== undefined) {
      this.#abort = new AbortLink(call.signal, timeLimit(tool, executor?.timesExecution === true));
    }
    let outcome: ExecutionOutcome | Promise<ExecutionOutcome> | undefined;
    try {
      // A call aborted while a layer held it (a consent prompt, a queue) never starts its handler.
      if (!this.#aborted()) outcome = executor === null ? runInline(this) : executor.execute(this);
    } catch (error) {
      this.#end();
      throw error;
    }
    if (!(outcome instanceof Promise)) {
      this.#end();
      return this.#answer(outcome);
    }
    return outcome.then(
      (settled) => {
        this.#end();
        return this.#answer(settled);
      },
      (error: unknown) => {
        this.#end();
        throw error;
      },
    );
  }

  /** The result the outcome means, or the next attempt's; throws the call's cancellation. */
  #answer(outcome: ExecutionOutcome | undefined): ToolCallResult | Promise<ToolCallResult> {
    const verdict = this.#verdict(outcome);
    if (verdict === RETRY) return this.#retry();
    const usage = this.#costs?.usage(this.tool.safety.spend);
    return usage === undefined ? verdict : { ...verdict, usage };
  }

  async #retry(): Promise<ToolCallResult> {
    const deps = this.#deps;
    const attempt = this.#attempt;
    try {
      await deps.sleep(backoffDelay(this.tool.retry!, attempt, deps.random), this.#call.signal);
    } catch (reason) {
      throw cancellationOf(reason);
    }
    return new CallAttempt({
      deps,
      call: this.#call,
      tool: this.tool,
      executor: this.#executor,
      attempt: attempt + 1,
      started: this.#started,
      costs: this.#costs,
    }).run();
  }

  /** What the attempt's outcome means: a result, another attempt, or a cancellation (thrown). */
  #verdict(outcome: ExecutionOutcome | undefined): ToolCallResult | typeof RETRY {
    const deps = this.#deps;
    const call = this.#call;
    const attempt = this.#attempt;
    const aborted = this.#aborted();
    const abort = this.#abort;
    const { tool } = this;
    const executorName = tool.executor.kind;
    const server = executorName === 'mcp_server' ? tool.executor.server : undefined;
    const end: AttemptEnd = {
      deps,
      call,
      executor: executorName,
      elapsedMs: deps.now() - this.#started,
      attempts: attempt,
    };
    const mayRetry = tool.retry !== undefined && attempt < (tool.retry.maxAttempts ?? 1);
    if (abort !== null && (outcome === undefined || aborted)) {
      if (!ToolTimeoutError.isInstance(abort.reason)) throw cancellationOf(abort.reason);
      if (mayRetry) return RETRY;
      return withServer(timeoutResult(end, abort.reason), server);
    }
    if (outcome === undefined) throw new CancelledError();
    if (outcome.ok) {
      return withServer(okResult(end, outcome.value), server);
    }
    if (outcome.executorFailure !== undefined) {
      const failed = outcome.executorFailure;
      return withServer(
        executorFailure(end, { ...failed, message: scrubbed(deps, failed.message) }),
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
    return withServer(toolErrorResult(end, { thrown: outcome.error, category }), server);
  }
}

/** The dispatcher's runtime values, with the turn's own `context` when it brought one. */
function valuesFor(deps: ExecuteCallDeps, call: ToolCallEnvelope): RuntimeValues {
  const context = callStateOf(call)?.context;
  return context === undefined ? deps.values : { ...deps.values, context };
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
