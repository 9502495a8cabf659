import type { ToolCaller } from '../dispatch/tool-caller.js';
import { composeToolCallers } from './compose-tool-callers.js';
import type { ToolTransform } from './tools-use-middleware.js';
import { type AuditLogOptions, withAuditLog } from './with-audit-log.js';
import { type ConsentOptions, type ConsentPrompt, withConsent } from './with-consent.js';
import { type DryRunOptions, withDryRun } from './with-dry-run.js';
import {
  type IdempotencyKey,
  type IdempotencyOptions,
  withIdempotency,
} from './with-idempotency.js';
import { type RateLimitOptions, withRateLimit } from './with-rate-limit.js';
import { type RedactionOptions, type Redactor, withRedaction } from './with-redaction.js';
import { type RequiredReasonOptions, withRequiredReason } from './with-required-reason.js';
import { type ScopedExecutorOptions, withScopedExecutor } from './with-scoped-executor.js';
import { type TelemetryOptions, type TelemetrySink, withTelemetry } from './with-telemetry.js';
import { type TimeoutOptions, withTimeout } from './with-timeout.js';

/** Which layers the stack has, and their options. Each is left out when not given. */
export interface GovernanceStackOptions {
  readonly audit?: AuditLogOptions | AuditLogOptions['sink'];
  readonly telemetry?: TelemetryOptions | TelemetrySink;
  readonly scope?: ScopedExecutorOptions;
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
  readonly rateLimit?: RateLimitOptions;
  readonly dryRun?: DryRunOptions;
}

export interface GovernanceStack {
  /** The composed middleware, outermost first. */
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
 * expensive work), reason, consent and redaction in the middle, idempotency and the time budget,
 * and rate limit and dry run innermost.
 *
 * @example
 * const stack = governanceStack({ audit: 'local', telemetry: 'otel', reason: true, consent: ask, rateLimit: { maxCalls: 500 } });
 * const dispatcher = createDispatcher({ registry: toolsUseMiddleware(registry, stack.schemaTransform!), caller: stack.caller });
 */
export function governanceStack(options: GovernanceStackOptions): GovernanceStack {
  const layers: [string, ToolCaller][] = [];
  const audit = options.audit === undefined ? undefined : withAuditLog(options.audit);
  const telemetry = options.telemetry === undefined ? undefined : withTelemetry(options.telemetry);
  const reason =
    options.reason === undefined
      ? undefined
      : withRequiredReason(options.reason === true ? {} : options.reason);
  if (audit !== undefined) layers.push(['with_audit_log', audit]);
  if (telemetry !== undefined) layers.push(['with_telemetry', telemetry]);
  if (options.scope !== undefined)
    layers.push(['with_scoped_executor', withScopedExecutor(options.scope)]);
  if (reason !== undefined) layers.push(['with_required_reason', reason.caller]);
  const consent = options.consent;
  if (consent !== undefined) {
    layers.push([
      'with_consent',
      typeof consent === 'function'
        ? withConsent(consent)
        : withConsent(consent.prompt, consent.options),
    ]);
  }
  const redaction = options.redaction;
  if (redaction !== undefined) {
    layers.push([
      'with_redaction',
      typeof redaction === 'function'
        ? withRedaction(redaction)
        : withRedaction(redaction.redactor, redaction.options),
    ]);
  }
  if (options.idempotency !== undefined) {
    layers.push([
      'with_idempotency',
      withIdempotency(options.idempotency.key, options.idempotency.options),
    ]);
  }
  if (options.timeout !== undefined) layers.push(['with_timeout', withTimeout(options.timeout)]);
  if (options.rateLimit !== undefined)
    layers.push(['with_rate_limit', withRateLimit(options.rateLimit)]);
  if (options.dryRun !== undefined) layers.push(['with_dry_run', withDryRun(options.dryRun)]);
  return {
    caller: composeToolCallers(layers.map(([, layer]) => layer)),
    schemaTransform: reason?.schemaTransform ?? null,
    layers: layers.map(([name]) => name),
    async flush() {
      await audit?.flush();
    },
    async close() {
      await telemetry?.flush();
      await audit?.close();
    },
  };
}
