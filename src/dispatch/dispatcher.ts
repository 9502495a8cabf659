import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Observable, Subject } from 'rxjs';
import { isCancellation } from '../cancellation.js';
import { InvalidOptionError } from '../errors.js';
import { rx } from '../rxjs.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import { DEFAULT_MAX_ARGUMENT_DEPTH } from './argument-shape.js';
import { sleep } from './backoff.js';
import { createAdmission, type TurnOptions } from './call-admission.js';
import { callStateOf, markStarted } from './call-state.js';
import { completedResult } from './completed-result.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import { toWireCategory } from './error-taxonomy.js';
import type { ToolCallEvent } from './events.js';
import { type ExecuteCallDeps, executeCall } from './execute-call.js';
import type { Executor } from './executor.js';
import { nextCalledTwice } from './next-called-twice-error.js';
import type { ProposedCall } from './proposed-call.js';
import { isUnreadable, type ReadCall, readProposedCall } from './read-proposed-call.js';
import { DEFAULT_MAX_RENDERED_CHARS } from './render-output.js';
import {
  cancelledResultFrom,
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from './result.js';
import { createSecretScrubber } from './secret-scrubber.js';
import type { Next } from './tool-caller.js';

export type { TurnOptions } from './call-admission.js';
export type { DispatcherOptions };

/**
 * What `createDispatcher` returns: dispatches calls through the middleware to their executors, one
 * result each, and reports their lifecycle.
 */
export interface Dispatcher {
  readonly registry: ToolRegistry;
  /**
   * Lifecycle events of every call, in completion order. A call dispatched while nobody listens
   * sends none: subscribe before dispatching.
   */
  readonly events$: Observable<ToolCallEvent>;
  /**
   * Runs one proposed call through validation, the middleware and an executor. Always resolves to
   * exactly one result with the call id preserved; never rejects for anything the model or a tool
   * did.
   */
  dispatch(call: ProposedCall, turn?: TurnOptions): Promise<ToolCallResult>;
  /**
   * `dispatch` without a promise where none is needed, for engines that run many calls (the turn
   * engine does): the result itself when nothing on the call's way had to wait (nobody subscribed
   * to `events$`, no `caller`, and an inline handler that returned a value or threw), else a
   * promise of it. This is the dispatcher's one fast path; like `dispatch`, it never throws or
   * rejects for anything the model or a tool did.
   */
  dispatchNow(call: ProposedCall, turn?: TurnOptions): ToolCallResult | Promise<ToolCallResult>;
}

const DEFAULT_MAX_ARGUMENT_CHARS = 1 << 20;

/**
 * Builds a dispatcher over a registry and a middleware stack.
 *
 * @example
 * const dispatcher = createDispatcher({ registry, caller: composeToolCallers([withAuditLog('local')]) });
 * const result = await dispatcher.dispatch({ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' });
 * result.ok; // true
 */
export function createDispatcher<Context = unknown>(
  options: DispatcherOptions<Context>,
): Dispatcher {
  const { registry } = options;
  if (registry === undefined || typeof registry.resolve !== 'function') {
    throw new InvalidOptionError(
      'registry',
      'createDispatcher: registry must be a ToolRegistry (createToolRegistry)',
    );
  }
  if (options.caller !== undefined && typeof options.caller !== 'function') {
    throw new InvalidOptionError(
      'caller',
      'createDispatcher: caller must be a function (call, next) => result',
    );
  }
  const maxArgumentChars = options.maxArgumentChars ?? DEFAULT_MAX_ARGUMENT_CHARS;
  const maxArgumentDepth = options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
  if (!Number.isInteger(maxArgumentDepth) || maxArgumentDepth < 1) {
    throw new InvalidOptionError(
      'maxArgumentDepth',
      `createDispatcher: maxArgumentDepth must be an integer ≥ 1; got ${String(maxArgumentDepth)}`,
    );
  }
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const generateCallId = options.generateCallId ?? (() => `call_${randomUUID()}`);
  // Made when `events$` is first read: a dispatcher nobody listens to loads no RxJS.
  let events: Subject<ToolCallEvent> | null = null;
  let events$: Observable<ToolCallEvent> | null = null;
  const executors = new Map<ExecutorName, Executor>();
  for (const executor of options.executors ?? []) {
    if (executor.name === 'inline') {
      throw new InvalidOptionError(
        'executors',
        'createDispatcher: an executor may not be named inline: inline handlers run in the dispatcher itself',
      );
    }
    executors.set(executor.name, executor);
  }
  const envelopeFor = createAdmission({
    registry,
    maxArgumentChars,
    maxArgumentDepth,
    generateCallId,
    policy: options.policy,
  });

  const deps: ExecuteCallDeps = {
    registry,
    validator: registry.validator,
    executors,
    values: { context: options.context, stores: options.stores, secrets: options.secrets },
    maxRenderedChars: options.maxRenderedChars ?? DEFAULT_MAX_RENDERED_CHARS,
    artifactStore: options.artifactStore,
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    scrubber: options.scrubSecrets === false ? null : createSecretScrubber(options.secrets),
    onProgress: (call: ToolCallEnvelope, progress: ToolProgress) => {
      if (events?.observed)
        events.next({ type: 'tool_call_progress', ...eventBase(call, wallClock()), progress });
    },
  };
  /** The bottom of the stack: the executor stage, entered once per call. */
  const bottom: Next = (call) => {
    const state = callStateOf(call);
    if (state !== undefined && !markStarted(state)) return nextCalledTwice('the middleware');
    try {
      return Promise.resolve(executeCall(deps, call));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const caller = options.caller;

  /**
   * Runs the call to its one result: the result itself when nothing on its way waited (no layer,
   * and the fast path of `CallAttempt.run`), else a promise of it. The bottom's result is complete
   * by construction; a caller's is checked and completed, and carries the call's own identity.
   */
  function runCaller(call: ToolCallEnvelope): ToolCallResult | Promise<ToolCallResult> {
    let answer: ToolCallResult | Promise<ToolCallResult>;
    try {
      if (caller === undefined) answer = executeCall(deps, call);
      else {
        answer = Promise.resolve(caller(call, bottom)).then((result) =>
          layeredResult(call, result),
        );
      }
    } catch (error) {
      return failedResult(call, error);
    }
    if (!(answer instanceof Promise)) return answer;
    return answer.then(undefined, (error: unknown) => failedResult(call, error));
  }

  /** A cancellation becomes the call's `cancelled` result; anything else an `exception` one. */
  function failedResult(call: ToolCallEnvelope, error: unknown): ToolCallResult {
    if (isCancellation(error, call.signal)) return cancelledResultFrom(call, error);
    return exceptionResult(call, error, { status: 'exception' });
  }

  function layeredResult(call: ToolCallEnvelope, layered: ToolCallResult): ToolCallResult {
    const violation = resultContractViolation(layered, call);
    if (violation !== null)
      return exceptionResult(call, new Error(violation), { status: 'exception' });
    const result = completedResult(layered, call);
    if (result.toolCallId !== call.callId || result.emitOrder !== call.turn.emitOrder) {
      // A layer may return a shared (cached) result: never let it carry another call's identity.
      return { ...result, toolCallId: call.callId, emitOrder: call.turn.emitOrder };
    }
    return result;
  }

  function dispatchNow(
    proposed: ProposedCall,
    turnOptions?: TurnOptions,
  ): ToolCallResult | Promise<ToolCallResult> {
    const read = readProposedCall(proposed);
    if (events?.observed) return dispatchObserved(read, turnOptions);
    // A call of a cancelled turn still passes through the layers, so audit records it; the
    // bottom check never starts its handler.
    return runCaller(envelopeFor(read, turnOptions));
  }

  function dispatch(proposed: ProposedCall, turnOptions?: TurnOptions): Promise<ToolCallResult> {
    try {
      return Promise.resolve(dispatchNow(proposed, turnOptions));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A call dispatched while someone listens: its whole life goes out on `events$`. */
  async function dispatchObserved(
    read: ReadCall,
    turnOptions: TurnOptions | undefined,
  ): Promise<ToolCallResult> {
    const arrived = now();
    const call = envelopeFor(read, turnOptions);
    const tool = toolOf(call);
    events?.next({
      type: 'tool_call',
      ...eventBase(call, wallClock()),
      status: 'pending',
      title: tool?.title ?? call.toolName,
      kind: tool?.kind ?? 'other',
      rawInput: isUnreadable(read) ? null : (read.arguments ?? null),
    });
    events?.next({
      type: 'tool_call_update',
      ...eventBase(call, wallClock()),
      status: 'in_progress',
    });
    const result = await runCaller(call);
    if (events?.observed) emitFinished(call, result, now() - arrived);
    return result;
  }

  function emitFinished(call: ToolCallEnvelope, result: ToolCallResult, durationMs: number): void {
    const base = eventBase(call, wallClock());
    if (result.audit !== undefined)
      events?.next({ type: 'tool_call_audit', ...base, audit: result.audit });
    events?.next({
      type: 'tool_call_update',
      ...base,
      status: result.ok ? 'completed' : 'failed',
      resultStatus: result.status,
      errorCategory: result.ok ? null : (toWireCategory(result.errorCategory) ?? 'unknown'),
      error: result.error,
      executor: result.executor,
      durationMs,
      executionDurationMs: result.executionDurationMs,
      rawOutput: result.result,
    });
  }

  const dispatcher: Dispatcher = {
    registry,
    get events$() {
      events ??= new (rx().Subject)<ToolCallEvent>();
      events$ ??= events.asObservable();
      return events$;
    },
    dispatch,
    dispatchNow,
  };
  return dispatcher;
}

function eventBase(call: ToolCallEnvelope, at: number) {
  return {
    toolCallId: call.callId,
    toolName: call.toolName,
    emitOrder: call.turn.emitOrder,
    sessionId: call.turn.sessionId,
    at,
  };
}

function toolOf(call: ToolCallEnvelope): AnyTool | undefined {
  return callStateOf(call)?.tool;
}
