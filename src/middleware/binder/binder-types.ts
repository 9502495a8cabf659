import type { JsonObject, JsonSchema } from '../../tools/json.js';

/** What a binder is asked: turn `intent` into arguments for `tool` that satisfy `schema`. */
export interface BinderRequest {
  /** The tool's canonical name. */
  readonly tool: string;
  readonly description: string;
  /** The planner's natural-language intent, trimmed (never empty). */
  readonly intent: string;
  /** The arguments the planner did send, without the intent field (may be empty). */
  readonly partialArgs: JsonObject;
  /** The schema the bound arguments must satisfy: the tool handler's own schema. */
  readonly schema: JsonSchema;
  /** The system prompt configured on the middleware. */
  readonly system: string;
  /** The user prompt rendered from the fields above (`renderBinderPrompt`). */
  readonly prompt: string;
  /** Aborts when the latency budget runs out or the turn is cancelled. */
  readonly signal: AbortSignal;
}

/**
 * What a binder answers: the arguments as an object (`data`), or as JSON text (`text`). `data` wins
 * when both are present.
 */
export interface BinderResponse {
  readonly data?: object;
  readonly text?: string;
}

/** A pluggable binder (test hook, or any model client). It is called at most once per tool call. */
export type BinderFn = (request: BinderRequest) => Promise<BinderResponse>;

/** The outcome of a binder hop, as recorded on `audit.binder.status`. */
export type BinderStatus = 'ok' | 'skipped' | 'timeout' | 'transport_error' | 'schema_error';

/** Why the binder hop was skipped, as recorded on `audit.binder.reason`. */
export type BinderSkipReason = 'args_already_valid' | 'no_schema' | 'no_intent';

/** The record the binder attaches to every result it handles, under `audit.binder`. */
export interface BinderAudit {
  readonly provider: string;
  readonly model: string;
  readonly status: BinderStatus;
  /** Wall-clock time of the binder hop in ms (0 when skipped). */
  readonly latencyMs: number;
  /** Present when status is not `ok`: the skip reason or what went wrong. */
  readonly reason?: string;
  /** Binder hops made: 0 (skipped) or 1. Never more: retries defeat the latency win. */
  readonly attempts: 0 | 1;
}
