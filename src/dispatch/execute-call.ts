import { CancelledError, errorMessage, ToolTimeoutError } from '../errors.js';
import type { JsonObject } from '../tools/json.js';
import type { SchemaValidator } from '../tools/schema-validator.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import { backoffDelay } from './backoff.js';
import { CallAbort } from './call-abort.js';
import { callStateOf, isAdvertised } from './call-state.js';
import { classifyError } from './classify-error.js';
import { closestName } from './closest-name.js';
import type { ExecutorName, ToolCallEnvelope, TurnInfo } from './envelope.js';
import { isTransient } from './error-taxonomy.js';
import { policyDenial, policyDeniedResult } from './execution-policy.js';
import type { ExecutionOutcome, ExecutionRequest, Executor, RuntimeValues } from './executor.js';
import { type ArtifactStore, boundRendered, contentText, renderValue } from './render-output.js';
import { type ContentBlock, shortCircuitResult, type ToolCallResult } from './result.js';
import type { SecretScrubber } from './secret-scrubber.js';
import { isToolOutput } from './tool-output.js';

/** What the executor stage needs from its dispatcher. */
export interface ExecuteCallDeps {
  readonly registry: ToolRegistry;
  readonly validator: SchemaValidator;
  readonly executors: ReadonlyMap<ExecutorName, Executor>;
  readonly values: RuntimeValues;
  readonly maxRenderedChars: number;
  readonly artifactStore: ArtifactStore | undefined;
  readonly now: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly onProgress: (call: ToolCallEnvelope, progress: ToolProgress) => void;
  /** Removes injected secrets from what a tool returned, threw or reported; null: no scrubbing. */
  readonly scrubber: SecretScrubber | null;
}

const MAX_LISTED_TOOLS = 50;

/** The model-facing text of an unknown tool: the names it may use instead. */
export function toolNotFoundMessage(name: string, available: readonly string[]): string {
  const listed = available.slice(0, MAX_LISTED_TOOLS).join(', ');
  const more = available.length > MAX_LISTED_TOOLS ? `, … (${available.length} in all)` : '';
  const guess = closestName(name, available);
  const hint = guess === null ? '' : ` Did you mean ${JSON.stringify(guess)}?`;
  return `Unknown tool ${JSON.stringify(name)}.${hint} Available tools: ${listed === '' ? '(none)' : listed}${more}.`;
}

function refuse(call: ToolCallEnvelope, status: string, message: string): ToolCallResult {
  return shortCircuitResult(call, {
    status,
    error: message,
    errorCategory: status,
    observation: message,
  });
}

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

function isRefusal(checked: ToolCallResult | AnyTool): checked is ToolCallResult {
  return 'toolCallId' in checked;
}

/** The tool to run, or the refusal of a call that may not run. */
function checkCall(deps: ExecuteCallDeps, call: ToolCallEnvelope): ToolCallResult | AnyTool {
  const state = callStateOf(call);
  if (state === undefined) {
    return refuse(
      call,
      'policy_blocked',
      'the call envelope was not derived from the dispatched call (build it with { ...call, … })',
    );
  }
  if (state.malformed === true && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  const tool =
    call.toolName === state.tool?.name ? state.tool : deps.registry.resolve(call.toolName);
  if (tool === undefined || !isAdvertised(tool, state.advertised)) {
    const available = deps.registry
      .list()
      .filter((candidate) => isAdvertised(candidate, state.advertised))
      .map((candidate) => candidate.name);
    return refuse(call, 'tool_not_found', toolNotFoundMessage(call.toolName, available));
  }
  if (state.unparseable && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  const denial = state.policy === undefined ? null : policyDenial(state.policy, tool);
  if (denial !== null) return policyDeniedResult(call, denial);
  const unchanged = tool === state.tool && call.toolArgs === state.args;
  if (unchanged && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  // Arrival checked the model-visible schema; the handler's own schema needs a check of its own
  // unless it is that very schema and the arguments did not change.
  if (!unchanged || tool.handlerSchema !== tool.inputSchema) {
    const check = deps.validator.check(tool.name, tool.handlerSchema, call.toolArgs);
    if (!check.valid) return refuse(call, 'schema_violation', check.repair);
  }
  return tool;
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
    const abort = new CallAbort(
      call.signal,
      tool.timeoutMs,
      tool.name,
      executor.timesExecution === true,
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
      if (!ToolTimeoutError.isInstance(abort.reason)) throw asCancellation(abort.reason);
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
    if (category === 'cancelled') throw scrubbedCancellation(deps, asCancellation(outcome.error));
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

/** Names the MCP server that ran a call in its audit (ACP's `{ kind: 'mcp_server', serverName }`). */
function withServer(result: ToolCallResult, server: string | undefined): ToolCallResult {
  if (server === undefined) return result;
  return { ...result, audit: { executor: { kind: 'mcp_server', serverName: server } } };
}

/** One execution of a call, as its executor sees it (a class: no closures allocated per call). */
class CallExecution implements ExecutionRequest {
  readonly tool: AnyTool;
  readonly args: JsonObject;
  readonly callId: string;
  readonly turn: TurnInfo;
  readonly values: RuntimeValues;
  readonly #deps: ExecuteCallDeps;
  readonly #call: ToolCallEnvelope;
  readonly #abort: CallAbort;

  constructor(deps: ExecuteCallDeps, call: ToolCallEnvelope, tool: AnyTool, abort: CallAbort) {
    this.tool = tool;
    this.args = call.toolArgs;
    this.callId = call.callId;
    this.turn = call.turn;
    this.values = deps.values;
    this.#deps = deps;
    this.#call = call;
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get abortable(): boolean {
    return this.#abort.abortable;
  }

  whenAborted(): Promise<never> {
    return this.#abort.whenAborted();
  }

  started(): void {
    this.#abort.armTimeout();
  }

  emit(progress: ToolProgress): void {
    const scrubber = this.#deps.scrubber;
    this.#deps.onProgress(
      this.#call,
      scrubber === null ? progress : (scrubber.value(progress) as ToolProgress),
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
    throw asCancellation(reason);
  }
  return true;
}

function asCancellation(reason: unknown): CancelledError {
  return CancelledError.isInstance(reason)
    ? reason
    : new CancelledError(reason instanceof Error ? reason.message : 'tool call cancelled', reason);
}

function okResult(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
  executor: ExecutorName,
  returned: unknown,
  elapsed: number,
  attempts: number,
): ToolCallResult {
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
  const bounded = boundRendered(full, call.callId, deps.maxRenderedChars, deps.artifactStore);
  const result: Mutable<ToolCallResult> = {
    ok: !isError,
    status: isError ? 'error' : 'ok',
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: value,
    renderedResult: bounded.text,
    observation: isError
      ? `[error from ${call.toolName}]\n${bounded.text}\n[end of ${call.toolName} error]`
      : bounded.text,
    error: isError ? bounded.text : null,
    errorCategory: isError ? 'tool_error' : null,
    executor,
    executionDurationMs: elapsed,
    emitOrder: call.turn.emitOrder,
    attempts,
  };
  // Assigned, not spread: spreading on the hot path costs more than the rest of the result.
  if (content !== undefined) result.content = content;
  if (bounded.artifact !== null) result.artifacts = [bounded.artifact];
  return result;
}

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };

function failure(
  call: ToolCallEnvelope,
  executor: ExecutorName,
  elapsed: number,
  attempts: number,
  fields: { status: string; error: string; errorCategory: string; result?: unknown },
): ToolCallResult {
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
    executor,
    executionDurationMs: elapsed,
    emitOrder: call.turn.emitOrder,
    attempts,
  };
}

/** `text` without the injected secrets, when the dispatcher scrubs them. */
function scrubbed(deps: ExecuteCallDeps, text: string): string {
  return deps.scrubber === null ? text : deps.scrubber.text(text);
}

/** A tool's own cancellation, its message scrubbed (and its cause dropped when it quoted a secret). */
function scrubbedCancellation(deps: ExecuteCallDeps, error: CancelledError): CancelledError {
  const message = scrubbed(deps, error.message);
  return message === error.message ? error : new CancelledError(message);
}

function toolErrorResult(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
  executor: ExecutorName,
  elapsed: number,
  attempts: number,
  thrown: unknown,
  category: string,
): ToolCallResult {
  return failure(call, executor, elapsed, attempts, {
    status: 'error',
    error: scrubbed(deps, errorMessage(thrown)),
    errorCategory: category === 'generic' ? 'tool_error' : category,
  });
}

function timeoutResult(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
  executor: ExecutorName,
  elapsed: number,
  attempts: number,
  reason: unknown,
): ToolCallResult {
  return failure(call, executor, elapsed, attempts, {
    status: 'timeout',
    error: scrubbed(deps, errorMessage(reason)),
    errorCategory: 'timeout',
  });
}

function executorFailure(
  call: ToolCallEnvelope,
  executor: ExecutorName,
  elapsed: number,
  attempts: number,
  message: string,
  exitCode?: number,
  errorCategory = 'executor_error',
): ToolCallResult {
  // The exit code of a crashed worker rides on `result` for the application (and receipts).
  return failure(call, executor, elapsed, attempts, {
    status: 'executor_error',
    error: message,
    errorCategory,
    ...(exitCode === undefined ? {} : { result: { exitCode } }),
  });
}

/** Frozen empty arguments stand in for arguments that could not be read. */
export const UNREADABLE_ARGS: JsonObject = Object.freeze({}) as JsonObject;
