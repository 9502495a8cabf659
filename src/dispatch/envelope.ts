import type { JsonObject, JsonSchema } from '../tools/json.js';
import type { SchemaIssue } from '../tools/repair-message.js';
import type { ResolvedSafety, ToolKind } from '../tools/tool-spec.js';
import type { ModelTokens } from './model-token-share.js';

/** Where a call runs. */
export type ExecutorName =
  | 'inline'
  | 'worker'
  | 'mcp_server'
  | 'queue'
  | 'host_bridge'
  | 'provider_native';

/** Facts about the planner turn a call belongs to. */
export interface TurnInfo {
  readonly iteration: number;
  readonly sessionId: string;
  readonly runId: string | null;
  readonly model: string | null;
  readonly provider: string | null;
  /** Position of the call in the planner's emission (0-based). Results are delivered in this order. */
  readonly emitOrder: number;
  readonly maxConcurrentTools: number;
}

/** What is known about a call's arguments before the middleware runs. */
export type CallValidation =
  | { readonly valid: true }
  | {
      readonly valid: false;
      readonly status: 'tool_not_found' | 'schema_violation';
      /** The model-facing message: available tools, or what to repair. */
      readonly message: string;
      readonly issues: readonly SchemaIssue[];
    };

/** A tool's safety metadata and kind, plus its free annotations, as middleware sees them. */
export interface CallAnnotations extends Readonly<Record<string, unknown>> {
  readonly kind?: ToolKind;
  readonly safety?: ResolvedSafety;
}

/**
 * One call on its way through the middleware. A layer may rewrite arguments
 * (`next({ ...call, toolArgs })`), short-circuit, or observe. Calls whose tool is unknown or whose
 * arguments failed validation pass through the middleware too (so audit logs see them), marked by
 * `validation`; the executor at the bottom refuses them.
 */
export interface ToolCallEnvelope {
  readonly toolName: string;
  readonly toolArgs: JsonObject;
  readonly callId: string;
  readonly declaredExecutor: ExecutorName | null;
  /** The model-visible input schema (null for an unknown tool). */
  readonly schema: JsonSchema | null;
  readonly description: string;
  readonly annotations: CallAnnotations;
  readonly turn: TurnInfo;
  /** Aborted when the turn is cancelled; layers may pass a narrower signal down. */
  readonly signal: AbortSignal | undefined;
  readonly validation: CallValidation;
  /**
   * The key the tool's runtime hands to the systems it changes (`ToolRuntime.idempotencyKey`). Set
   * by a run's journal so it stays the same across resumes; when unset, the key is derived from
   * the run, the iteration and the call id (see `idempotencyKeyOf`).
   */
  readonly idempotencyKey?: string;
  /**
   * The call's share of its model turn's tokens (`modelTokenShares`: the turn's input and output
   * tokens split equally across its calls), set when the turn's usage was known as the call was
   * dispatched: every call of a streamed turn held until the response ended, every call of
   * `dispatchTurn` given `modelUsage`. Undefined on calls started while the model still streamed
   * (the eager ones) and on calls dispatched without a turn's usage. The run's results carry the
   * same share (`usage.modelInputTokens`, `usage.modelOutputTokens`).
   */
  readonly modelTokens?: ModelTokens;
}
