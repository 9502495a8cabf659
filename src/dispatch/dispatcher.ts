import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Observable, Subject } from 'rxjs';
import { isCancellation } from '../cancellation.js';
import { InvalidOptionError } from '../errors.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import { DEFAULT_MAX_ARGUMENT_DEPTH } from './argument-shape.js';
import { sleep } from './backoff.js';
import { createAdmission, type TurnOptions } from './call-admission.js';
import { callStateOf } from './call-state.js';
import { completedResult } from './completed-result.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import { toWireCategory } from './error-taxonomy.js';
import type { ToolCallEvent } from './events.js';
import { type ExecuteCallDeps, executeCall } from './execute-call.js';
import type { ExecutionPolicy } from './execution-policy.js';
import type { Executor, RuntimeValues } from './executor.js';
import { createInlineExecutor } from './inline-executor.js';
import { nextCalledTwice } from './next-called-twice-error.js';
import type { ProposedCall } from './proposed-call.js';
import { readProposedCall } from './read-proposed-call.js';
import { type ArtifactStore, DEFAULT_MAX_RENDERED_CHARS } from './render-output.js';
import {
  cancelledResultFrom,
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from './result.js';
import { createSecretScrubber } from './secret-scrubber.js';
import type { Next, ToolCaller } from './tool-caller.js';

/** Options of `createDispatcher`. */
export interface DispatcherOptions<Context = unknown> extends RuntimeValues {
  readonly registry: ToolRegistry;
  /** The middleware stack, usually `composeToolCallers([...])`. Default: none. */
  readonly caller?: ToolCaller;
  /** Handed to tools that list `context` in `injected`. */
  readonly context?: Context;
  /** Executors besides the built-in inline one (e.g. a worker pool). */
  readonly executors?: readonly Executor[];
  /** Longest rendered result the model sees before output becomes an artifact. Default 20 000. */
  readonly maxRenderedChars?: number;
  /** Receives outputs too large for the model, in full. */
  readonly artifactStore?: ArtifactStore;
  /** Longest JSON argument text accepted, in characters. Default 1 MiB. */
  readonly maxArgumentChars?: number;
  /**
   * Deepest nesting of arguments accepted (the arguments object is level 1); deeper arguments are
   * refused as `schema_violation` before any layer walks them. Default 256.
   */
  readonly maxArgumentDepth?: number;
  /** Monotonic clock in ms. Default `performance.now`. */
  readonly now?: () => number;
  /** Wall clock in ms for the `at` of events. Default `Date.now`. */
  readonly wallClock?: () => number;
  /** Source of randomness for retry jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Waits between retries. Default: a timer that the call's signal cancels. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Generates ids for calls that arrive without one. Default `call_<uuid>`. */
  readonly generateCallId?: () => string;
  /**
   * The ambient execution policy: what any call may do. Turns and scoping layers can narrow it,
   * never widen it; the executor enforces it. Default: no restriction.
   */
  readonly policy?: ExecutionPolicy;
  /**
   * Scrub the values of `secrets` from what tools return, throw and report (results, progress
   * events, and everything built from them: receipts, spans, the next model request), replacing
   * each with `[redacted:<NAME>]`. Default true; `false` leaves tool output exactly as produced.
   */
  readonly scrubSecrets?: boolean;
}

export type { TurnOptions } from './call-admission.js';

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
  const events = new Subject<ToolCallEvent>();
  const executors = new Map<ExecutorName, Executor>([['inline', createInlineExecutor()]]);
  for (const executor of options.executors ?? []) executors.set(executor.name, executor);
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
      if (events.observed)
        events.next({ type: 'tool_call_progress', ...eventBase(call, wallClock()), progress });
    },
  };
  const bottom: Next = (call) => {
    const state = callStateOf(call);
    if (state !== undefined) {
      if (state.execution.started) return nextCalledTwice('the middleware');
      state.execution.started = true;
    }
    return executeCall(deps, call);
  };
  const caller = options.caller;
  const run: Next = caller === undefined ? bottom : (call) => caller(call, bottom);

  async function runCaller(call: ToolCallEnvelope): Promise<ToolCallResult> {
    let result: ToolCallResult;
    try {
      result = await run(call);
    } catch (error) {
      if (isCancellation(error, call.signal)) return cancelledResultFrom(call, error);
      return exceptionResult(call, error, { status: 'exception' });
    }
    const violation = resultContractViolation(result, call);
    if (violation !== null)
      return exceptionResult(call, new Error(violation), { status: 'exception' });
    result = completedResult(result, call);
    if (result.toolCallId !== call.callId || result.emitOrder !== call.turn.emitOrder) {
      // A layer may return a shared (cached) result: never let it carry another call's identity.
      return { ...result, toolCallId: call.callId, emitOrder: call.turn.emitOrder };
    }
    return result;
  }

  function dispatch(proposed: ProposedCall, turnOptions?: TurnOptions): Promise<ToolCallResult> {
    if (events.observed) return dispatchObserved(proposed, turnOptions);
    // Not async: with nobody listening, a call resolves with its run's own promise, which saves
    // the hops an async wrapper adds to every call.
    try {
      const call = envelopeFor(readProposedCall(proposed), turnOptions);
      // A call of a cancelled turn still passes through the layers, so audit records it; the
      // bottom check never starts its handler.
      return runCaller(call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A call dispatched while someone listens: its whole life goes out on `events$`. */
  async function dispatchObserved(
    proposed: ProposedCall,
    turnOptions: TurnOptions | undefined,
  ): Promise<ToolCallResult> {
    const arrived = now();
    const read = readProposedCall(proposed);
    const call = envelopeFor(read, turnOptions);
    const tool = toolOf(call);
    events.next({
      type: 'tool_call',
      ...eventBase(call, wallClock()),
      status: 'pending',
      title: tool?.title ?? call.toolName,
      kind: tool?.kind ?? 'other',
      rawInput: read.ok ? (read.call.arguments ?? null) : null,
    });
    events.next({
      type: 'tool_call_update',
      ...eventBase(call, wallClock()),
      status: 'in_progress',
    });
    const result = await runCaller(call);
    if (events.observed) emitFinished(call, result, now() - arrived);
    return result;
  }

  function emitFinished(call: ToolCallEnvelope, result: ToolCallResult, durationMs: number): void {
    const base = eventBase(call, wallClock());
    if (result.audit !== undefined)
      events.next({ type: 'tool_call_audit', ...base, audit: result.audit });
    events.next({
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

  return { registry, events$: events.asObservable(), dispatch };
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
