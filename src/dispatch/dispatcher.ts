import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Observable, Subject } from 'rxjs';
import { CancelledError, errorMessage, InvalidOptionError } from '../errors.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import { sleep } from './backoff.js';
import { CALL_STATE, type CallState, isAdvertised } from './call-state.js';
import type {
  CallAnnotations,
  CallValidation,
  ExecutorName,
  ToolCallEnvelope,
  TurnInfo,
} from './envelope.js';
import { toWireCategory } from './error-taxonomy.js';
import type { ToolCallEvent } from './events.js';
import {
  type ExecuteCallDeps,
  executeCall,
  toolNotFoundMessage,
  UNREADABLE_ARGS,
} from './execute-call.js';
import { type ExecutionPolicy, intersectPolicies } from './execution-policy.js';
import type { Executor, RuntimeValues } from './executor.js';
import { createInlineExecutor } from './inline-executor.js';
import { parseArguments } from './parse-arguments.js';
import type { ProposedCall } from './proposed-call.js';
import { type ArtifactStore, DEFAULT_MAX_RENDERED_CHARS } from './render-output.js';
import {
  cancelledResult,
  cancelledResultFrom,
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from './result.js';
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
}

/** Facts about the turn a call belongs to; all optional. */
export interface TurnOptions {
  readonly iteration?: number;
  readonly sessionId?: string;
  readonly runId?: string | null;
  readonly model?: string | null;
  readonly provider?: string | null;
  readonly emitOrder?: number;
  readonly maxConcurrentTools?: number;
  /** Cancels the call: queued work never starts, running work sees its signal abort. */
  readonly signal?: AbortSignal;
  /** Names of the tools the model was shown this turn. Default: every tool that is not deferred. */
  readonly advertised?: ReadonlySet<string>;
  /** Narrows the dispatcher's execution policy for this call. */
  readonly policy?: ExecutionPolicy;
}

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
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const generateCallId = options.generateCallId ?? (() => `call_${randomUUID()}`);
  const events = new Subject<ToolCallEvent>();
  const executors = new Map<ExecutorName, Executor>([['inline', createInlineExecutor()]]);
  for (const executor of options.executors ?? []) executors.set(executor.name, executor);
  const annotationsByTool = new WeakMap<AnyTool, CallAnnotations>();

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
    onProgress: (call: ToolCallEnvelope, progress: ToolProgress) => {
      if (events.observed)
        events.next({ type: 'tool_call_progress', ...eventBase(call, wallClock()), progress });
    },
  };
  const bottom: Next = (call) => executeCall(deps, call);
  const caller = options.caller;
  const run: Next = caller === undefined ? bottom : (call) => caller(call, bottom);

  function policyFor(turnPolicy: ExecutionPolicy | undefined): ExecutionPolicy | undefined {
    if (turnPolicy === undefined) return options.policy;
    return options.policy === undefined
      ? turnPolicy
      : intersectPolicies(options.policy, turnPolicy);
  }

  function annotationsOf(tool: AnyTool): CallAnnotations {
    let annotations = annotationsByTool.get(tool);
    if (annotations === undefined) {
      annotations = Object.freeze({ ...tool.annotations, kind: tool.kind, safety: tool.safety });
      annotationsByTool.set(tool, annotations);
    }
    return annotations;
  }

  function envelopeFor(call: ProposedCall, turnOptions: TurnOptions | undefined): ToolCallEnvelope {
    const name = typeof call?.name === 'string' ? call.name : '';
    const callId = typeof call?.id === 'string' && call.id !== '' ? call.id : generateCallId();
    const advertised = turnOptions?.advertised ?? null;
    const turn = turnFrom(turnOptions);
    const found = registry.resolve(name);
    const tool = found !== undefined && isAdvertised(found, advertised) ? found : undefined;
    let args = UNREADABLE_ARGS;
    let unparseable = false;
    let validation: CallValidation;
    if (tool === undefined) {
      const available = registry
        .list()
        .filter((candidate) => isAdvertised(candidate, advertised))
        .map((candidate) => candidate.name);
      const parsed = parseArguments(call?.arguments, {
        allowEmpty: true,
        maxLength: maxArgumentChars,
      });
      if (parsed.ok) args = parsed.args;
      validation = {
        valid: false,
        status: 'tool_not_found',
        message: toolNotFoundMessage(name, available),
        issues: [],
      };
    } else {
      const parsed = parseArguments(call.arguments, {
        allowEmpty: tool.safety.readOnly,
        maxLength: maxArgumentChars,
      });
      if (parsed.ok) {
        args = parsed.args;
        const check = registry.validator.check(tool.name, tool.inputSchema, args);
        validation = check.valid
          ? check
          : {
              valid: false,
              status: 'schema_violation',
              message: check.repair,
              issues: check.issues,
            };
      } else {
        unparseable = true;
        validation = {
          valid: false,
          status: 'schema_violation',
          message: `Invalid arguments for tool "${tool.name}": ${parsed.message}.`,
          issues: [{ path: '(arguments)', keyword: 'json', message: parsed.message }],
        };
      }
    }
    const policy = policyFor(turnOptions?.policy);
    const state: CallState =
      policy === undefined
        ? { tool, args, validation, unparseable, advertised }
        : { tool, args, validation, unparseable, advertised, policy };
    return {
      toolName: tool?.name ?? name,
      toolArgs: args,
      callId,
      declaredExecutor: tool === undefined ? null : tool.executor.kind,
      schema: tool?.inputSchema ?? null,
      description: tool?.description ?? '',
      annotations: tool === undefined ? EMPTY_ANNOTATIONS : annotationsOf(tool),
      turn,
      signal: turnOptions?.signal,
      validation,
      [CALL_STATE]: state,
    } as ToolCallEnvelope;
  }

  async function runCaller(call: ToolCallEnvelope): Promise<ToolCallResult> {
    let result: ToolCallResult;
    try {
      result = await run(call);
    } catch (error) {
      if (isCancellation(error, call)) return cancelledResultFrom(call, error);
      return exceptionResult(call, error, { status: 'exception' });
    }
    const violation = resultContractViolation(result, call);
    if (violation !== null)
      return exceptionResult(call, new Error(violation), { status: 'exception' });
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
      const call = envelopeFor(proposed, turnOptions);
      return call.signal?.aborted ? Promise.resolve(turnCancelled(call)) : runCaller(call);
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
    const call = envelopeFor(proposed, turnOptions);
    const tool = toolOf(call);
    events.next({
      type: 'tool_call',
      ...eventBase(call, wallClock()),
      status: 'pending',
      title: tool?.title ?? call.toolName,
      kind: tool?.kind ?? 'other',
      rawInput: proposed?.arguments ?? null,
    });
    events.next({
      type: 'tool_call_update',
      ...eventBase(call, wallClock()),
      status: 'in_progress',
    });
    const result = call.signal?.aborted ? turnCancelled(call) : await runCaller(call);
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

const EMPTY_ANNOTATIONS: CallAnnotations = Object.freeze({});

function toolOf(call: ToolCallEnvelope): AnyTool | undefined {
  return (call as { [CALL_STATE]?: CallState })[CALL_STATE]?.tool;
}

function turnFrom(options: TurnOptions | undefined): TurnInfo {
  return {
    iteration: options?.iteration ?? 0,
    sessionId: options?.sessionId ?? '',
    runId: options?.runId ?? null,
    model: options?.model ?? null,
    provider: options?.provider ?? null,
    emitOrder: options?.emitOrder ?? 0,
    maxConcurrentTools: options?.maxConcurrentTools ?? 1,
  };
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

function turnCancelled(call: ToolCallEnvelope): ToolCallResult {
  return cancelledResult(call, errorMessage(call.signal?.reason ?? 'the turn was cancelled'));
}

function isCancellation(error: unknown, call: ToolCallEnvelope): boolean {
  if (CancelledError.isInstance(error)) return true;
  if (error instanceof Error && error.name === 'AbortError') return true;
  return call.signal?.aborted === true && error === call.signal.reason;
}
