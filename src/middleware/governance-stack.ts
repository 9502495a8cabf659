import type { ToolCaller } from '../dispatch/tool-caller.js';
import { compileStages } from './compiled-stages.js';
import type { ToolTransform } from './tools-use-middleware.js';
import { type AuditLogOptions, auditLogStage } from './with-audit-log.js';
import { type BudgetOptions, budgetStage } from './with-budget.js';
import { type ConsentOptions, type ConsentPrompt, consentStage } from './with-consent.js';
import { type DryRunOptions, dryRunStage } from './with-dry-run.js';
import { type GuardrailsOptions, guardrailsStage } from './with-guardrails.js';
import {
  type IdempotencyKey,
  type IdempotencyOptions,
  idempotencyStage,
} from './with-idempotency.js';
import { type RateLimitOptions, rateLimitStage } from './with-rate-limit.js';
import { type RedactionOptions, type Redactor, redactionStage } from './with-redaction.js';
import { type RequiredReasonOptions, requiredReason } from './with-required-reason.js';
import { type ScopedExecutorOptions, scopedExecutorStage } from './with-scoped-executor.js';
import { type TelemetryOptions, type TelemetrySink, telemetryStage } from './with-telemetry.js';
import { type TimeoutOptions, timeoutStage } from './with-timeout.js';

/** Which layers the stack has, and their options. Each is left out when not given. */
export interface GovernanceStackOptions {
  readonly audit?: AuditLogOptions | AuditLogOptions['sink'];
  readonly telemetry?: TelemetryOptions | TelemetrySink;
  readonly scope?: ScopedExecutorOptions;
  /** Input and output guardrails: after scope, before reason and consent (cheap checks first). */
  readonly guardrails?: GuardrailsOptions;
  /** `true` for the defaults. */
  readonly reason?: RequiredReasonOptions | true;
  readonly consent?:
    | ConsentPrompt
    | { readonly prompt: ConsentPrompt; readonly options?: ConsentOptions };
  readonly redaction?:
    | Redactor
    | { readonly redactor: Redactor; readonly options?: RedactionOptions };
  readonly idempotency?: { readonly key: IdempotencyKey; readonly options?: IdempotencyOptions };
  readonly timeout?: TimeoutOptions;
  /** Dollar, token and call budgets: just outside the rate limit, so a refused call spends no slot. */
  readonly budget?: BudgetOptions;
  readonly rateLimit?: RateLimitOptions;
  readonly dryRun?: DryRunOptions;
}

/**
 * What `governanceStack` returns: the layers as one compiled caller, and the handles of the ones
 * that keep state.
 */
export interface GovernanceStack {
  /**
   * The stack as one layer: the layers below compiled together, equal in results and receipts
   * to the same layers composed (`composeToolCallers`), with one audit built per call.
   */
  readonly caller: ToolCaller;
  /** The schema-time half (the required reason), for `toolsUseMiddleware`; null without it. */
  readonly schemaTransform: ToolTransform | null;
  /** Wire names of the layers, outermost first. */
  readonly layers: readonly string[];
  /**
   * Resolves once every receipt recorded so far is in its log (the logs stay open); rejects with
   * a failed write. Resolves at once without an audit layer.
   */
  flush(): Promise<void>;
  /** Flushes telemetry and closes the audit logs. */
  close(): Promise<void>;
}

/**
 * The recommended governance stack in one call, in the recommended order: audit and telemetry
 * outermost (they see what every inner layer short-circuits), then scope (refuses before any
 * expensive work), guardrails (a call they block asks no one for consent), reason, consent and redaction in the middle, idempotency and the time budget,
 * and budget, rate limit and dry run innermost.
 *
 * The stack is one layer, not ten: each bundled layer's work is a stage, and the stages run in
 * one function that builds one audit and one receipt per call, where composed layers would each
 * copy the result to add their entry. It answers every call exactly as the same layers composed
 * with `composeToolCallers` would (results, audit, receipts and their hash chain; a property test
 * holds the two to it). A layer's failure is its own `tool_middleware_exception` result, as when
 * composed.
 *
 * @example
 * const stack = governanceStack({ audit: 'local', telemetry: 'otel', reason: true, consent: ask, rateLimit: { maxCalls: 500 } });
 * const dispatcher = createDispatcher({ registry: toolsUseMiddleware(registry, stack.schemaTransform!), caller: stack.caller });
 */
export function governanceStack(options: GovernanceStackOptions): GovernanceStack {
  const audit = options.audit === undefined ? undefined : auditLogStage(options.audit);
  const telemetry = options.telemetry === undefined ? undefined : telemetryStage(options.telemetry);
  const reason =
    options.reason === undefined
      ? undefined
      : requiredReason(options.reason === true ? {} : options.reason);
  const { consent, redaction, idempotency } = options;
  const stages = [
    audit,
    telemetry,
    options.scope === undefined ? undefined : scopedExecutorStage(options.scope),
    options.guardrails === undefined ? undefined : guardrailsStage(options.guardrails),
    reason?.stage,
    consent === undefined
      ? undefined
      : typeof consent === 'function'
        ? consentStage(consent)
        : consentStage(consent.prompt, consent.options),
    redaction === undefined
      ? undefined
      : typeof redaction === 'function'
        ? redactionStage(redaction)
        : redactionStage(redaction.redactor, redaction.options),
    idempotency === undefined ? undefined : idempotencyStage(idempotency.key, idempotency.options),
    options.timeout === undefined ? undefined : timeoutStage(options.timeout),
    options.budget === undefined ? undefined : budgetStage(options.budget),
    options.rateLimit === undefined ? undefined : rateLimitStage(options.rateLimit),
    options.dryRun === undefined ? undefined : dryRunStage(options.dryRun),
  ].filter((stage) => stage !== undefined);
  return {
    caller: compileStages('governance_stack', stages),
    schemaTransform: reason?.schemaTransform ?? null,
    layers: stages.map((stage) => stage.name),
    async flush() {
      await audit?.flush();
    },
    async close() {
      await telemetry?.flush();
      await audit?.close();
    },
  };
}
