import { CancelledError, errorMessage } from '../errors.js';
import type { JsonObject } from '../tools/json.js';
import type { ToolUsage } from '../tools/tool-cost.js';
import type { AuditData } from './audit.js';
import type { ToolDenial } from './denials.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import type { ProposedCall } from './proposed-call.js';

/** Status words with a fixed meaning; layers that short-circuit should use one of these. */
export const RESERVED_STATUSES = [
  'ok',
  'tool_not_found',
  'schema_violation',
  'consent_denied',
  'policy_blocked',
  'scope_violation',
  'executor_error',
  'redacted',
  'dry_run',
  'rate_limited',
  'timeout',
  'cancelled',
  'exception',
  'tool_middleware_exception',
  // A call whose intent was recorded but whose outcome is unknown: a crash, a lost job. Never run
  // again unless its tool is read-only, idempotent or honours its idempotency key.
  'in_doubt',
  // A call waiting for a decision recorded in the run's journal: the run ends interrupted.
  'approval_required',
  // An in-doubt call an operator gave up on: not run again, and it may not have taken effect.
  'abandoned',
  // A guardrail refused the call or withheld its result; the reason is the error.
  'guardrail_tripped',
  // A guardrail refused the call or withheld its result and stops the run.
  'guardrail_halted',
  // A budget of `withBudget` is spent (dollars the tools reported, or calls of a tool).
  'budget_exceeded',
] as const;

/**
 * A status Switchyard itself gives a result (`RESERVED_STATUSES`); middleware may not reuse one for
 * its own meaning.
 */
export type ReservedStatus = (typeof RESERVED_STATUSES)[number];

/** A result status: a reserved word, `error` (a failed tool), or a middleware's own word. */
export type ToolCallStatus = ReservedStatus | 'error' | (string & {});

/** A piece of model-facing content (MCP / ACP content blocks). */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | {
      readonly type: 'resource';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
    };

/** An output kept in full for the application while the model sees a bounded preview. */
export interface ArtifactRef {
  readonly id: string;
  readonly toolCallId: string;
  readonly mediaType: string;
  /** Length of the full rendered output, in UTF-16 code units. */
  readonly length: number;
}

/** What one proposed call yields: always exactly one of these, whatever happened. */
export interface ToolCallResult {
  readonly ok: boolean;
  readonly status: ToolCallStatus;
  /** Canonical tool name (never a provider alias). */
  readonly toolName: string;
  readonly toolCallId: string;
  readonly arguments: JsonObject;
  /** The structured value the tool returned (full size, for the application). */
  readonly result: unknown;
  /** The tool's output as text, bounded for the model. */
  readonly renderedResult: string;
  /** What the model should read: the rendered result, or the error and how to repair it. */
  readonly observation: string;
  readonly error: string | null;
  /** The category word (`tool_error`, `schema_violation`, `consent_denied`, …); see `toWireCategory`. */
  readonly errorCategory: string | null;
  readonly executor: ExecutorName | null;
  readonly executionDurationMs: number | null;
  readonly emitOrder: number;
  readonly approval?: unknown;
  readonly audit?: AuditData;
  readonly artifacts?: readonly ArtifactRef[];
  readonly content?: readonly ContentBlock[];
  readonly denial?: ToolDenial;
  /** Executions run for this call (more than one when a retry policy applied). */
  readonly attempts?: number;
  /** What the call cost, when its tool reported a cost (`runtime.reportCost`). */
  readonly usage?: ToolUsage;
}

/** Fields a short-circuiting layer may set on its result. */
export interface ShortCircuitFields {
  readonly status: ToolCallStatus;
  readonly error?: string;
  readonly errorCategory?: string;
  readonly observation?: string;
  readonly ok?: boolean;
  readonly result?: unknown;
  readonly renderedResult?: string;
  readonly audit?: AuditData;
  readonly denial?: ToolDenial;
  readonly approval?: unknown;
}

/**
 * The result of a layer that answers without calling `next`. Defaults: `ok` false, `error` and
 * `errorCategory` equal to the status word, and an observation `[blocked: <tool> — <status>]`
 * followed by the error text.
 */
export function shortCircuitResult(
  call: ToolCallEnvelope,
  fields: ShortCircuitFields,
): ToolCallResult {
  const error = fields.error ?? (fields.ok === true ? null : fields.status);
  return {
    ok: fields.ok ?? false,
    status: fields.status,
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: fields.result ?? null,
    renderedResult: fields.renderedResult ?? '',
    observation:
      fields.observation ??
      `[blocked: ${call.toolName} — ${fields.status}]${error !== null && error !== fields.status ? `\n${error}` : ''}`,
    error,
    errorCategory: fields.errorCategory ?? (fields.ok === true ? null : fields.status),
    executor: null,
    executionDurationMs: null,
    emitOrder: call.turn.emitOrder,
    ...(fields.audit === undefined ? {} : { audit: fields.audit }),
    ...(fields.denial === undefined ? {} : { denial: fields.denial }),
    ...(fields.approval === undefined ? {} : { approval: fields.approval }),
  };
}

/**
 * The result standing in for a thrown exception (a middleware layer or caller that threw). Its
 * category is `tool_middleware_exception`; `audit.layers` records where it happened.
 */
export function exceptionResult(
  call: ToolCallEnvelope,
  thrown: unknown,
  options: { status?: ToolCallStatus; layer?: string; now?: () => number } = {},
): ToolCallResult {
  const error = errorMessage(thrown);
  return {
    ok: false,
    status: options.status ?? 'tool_middleware_exception',
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: null,
    renderedResult: error,
    observation: `[error from ${call.toolName}]\n${error}\n[end of ${call.toolName} error]`,
    error,
    errorCategory: 'tool_middleware_exception',
    executor: null,
    executionDurationMs: null,
    emitOrder: call.turn.emitOrder,
    audit: {
      layers: [
        {
          name: options.layer ?? 'tool_caller',
          status: 'exception',
          error,
          at: new Date(options.now?.() ?? Date.now()).toISOString(),
        },
      ],
    },
  };
}

/**
 * The result standing in for a dispatch that rejected, which the dispatcher never should: a call
 * known only as the model proposed it (`dispatcher.dispatch` of another implementation).
 */
export function dispatchExceptionResult(
  call: ProposedCall,
  emitOrder: number,
  thrown: unknown,
): ToolCallResult {
  const error = errorMessage(thrown);
  return {
    ok: false,
    status: 'exception',
    toolName: typeof call.name === 'string' ? call.name : '',
    toolCallId: typeof call.id === 'string' ? call.id : '',
    arguments: {},
    result: null,
    renderedResult: error,
    observation: `[error dispatching ${String(call.name)}]\n${error}`,
    error,
    errorCategory: 'tool_parallel_dispatch_exception',
    executor: null,
    executionDurationMs: null,
    emitOrder,
  };
}

/** The result of a call that was cancelled before or while it ran. */
export function cancelledResult(call: ToolCallEnvelope, reason: string): ToolCallResult {
  return shortCircuitResult(call, {
    status: 'cancelled',
    error: reason,
    errorCategory: 'cancelled',
    observation: `[cancelled: ${call.toolName}]\n${reason}`,
  });
}

/**
 * The `cancelled` result of a call that `error` cancelled, with the audit the cancellation carries
 * for the call (see `CancelledError.audit`).
 */
export function cancelledResultFrom(call: ToolCallEnvelope, error: unknown): ToolCallResult {
  const result = cancelledResult(call, errorMessage(error));
  const audit = CancelledError.isInstance(error) ? error.audit : undefined;
  return audit === undefined ? result : withAudit(result, audit);
}

/**
 * Why a result object breaks the contract, or null when it is well formed. `call` is the call the
 * result answers: a call proposed without a name legitimately yields a result without one.
 */
export function resultContractViolation(value: unknown, call?: ToolCallEnvelope): string | null {
  if (typeof value !== 'object' || value === null) {
    return `a tool caller must resolve to a result object; got ${value === null ? 'null' : typeof value}`;
  }
  const result = value as Partial<ToolCallResult>;
  if (typeof result.ok !== 'boolean') return 'the result is missing a boolean `ok`';
  if (typeof result.status !== 'string' || result.status === '') {
    return 'the result is missing a `status`';
  }
  const nameless = call !== undefined && call.toolName === '';
  if (typeof result.toolName !== 'string' || (result.toolName === '' && !nameless)) {
    return 'the result is missing `toolName`';
  }
  return null;
}

const RESULT_FIELDS = new Set<string>([
  'ok',
  'status',
  'toolName',
  'toolCallId',
  'arguments',
  'result',
  'renderedResult',
  'observation',
  'error',
  'errorCategory',
  'executor',
  'executionDurationMs',
  'emitOrder',
  'audit',
]);

/**
 * A copy of `result` with `audit` replaced. Copies field by field: a spread (`{ ...result, audit }`)
 * of results of varying shapes costs several times more, and middleware does this on every call.
 * Fields beyond the core ones (optional fields, a layer's own) are carried over too.
 */
export function withAudit(result: ToolCallResult, audit: AuditData): ToolCallResult {
  const copy: Record<string, unknown> = {
    ok: result.ok,
    status: result.status,
    toolName: result.toolName,
    toolCallId: result.toolCallId,
    arguments: result.arguments,
    result: result.result,
    renderedResult: result.renderedResult,
    observation: result.observation,
    error: result.error,
    errorCategory: result.errorCategory,
    executor: result.executor,
    executionDurationMs: result.executionDurationMs,
    emitOrder: result.emitOrder,
    audit,
  };
  for (const key in result) {
    if (!RESULT_FIELDS.has(key) && Object.hasOwn(result, key)) {
      copy[key] = (result as unknown as Record<string, unknown>)[key];
    }
  }
  return copy as unknown as ToolCallResult;
}
