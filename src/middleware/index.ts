// The middleware surface: composition, the schema-time seam, and the bundled layers. Each bundled
// layer's inner function bears its wire name (`with_consent`, …), so the entry composeToolCallers
// records when a layer throws names it like the layer's own entries.

export { type AuditData, type AuditLayer, mergeAudit } from '../dispatch/audit.js';
export {
  type ExecutionPolicy,
  intersectPolicies,
  narrowExecutionPolicy,
  type PolicySubject,
  policyDenial,
  requiredCapabilities,
  withExecutionPolicy,
} from '../dispatch/execution-policy.js';
export type { Next, ToolCaller } from '../dispatch/tool-caller.js';
export {
  BinderFailureError,
  HandoffArtifactError,
  NextCalledTwiceError,
  ScopeViolationError,
} from '../errors.js';
export { attachAudit, attachLayer } from './attach-audit.js';
export { type BudgetTimer, setTimeoutTimer } from './binder/binder-budget.js';
export {
  type BinderFailureMode,
  DEFAULT_INTENT_DESCRIPTION,
  type NaturalLanguageExecutorOptions,
} from './binder/binder-options.js';
export {
  type BinderPromptInput,
  DEFAULT_BINDER_SYSTEM,
  renderBinderPrompt,
} from './binder/binder-prompt.js';
export { binderToolName } from './binder/binder-tool-name.js';
export type {
  BinderAudit,
  BinderFn,
  BinderRequest,
  BinderResponse,
  BinderSkipReason,
  BinderStatus,
} from './binder/binder-types.js';
export { composeToolCallers, defaultToolCaller } from './compose-tool-callers.js';
export {
  type GovernanceStack,
  type GovernanceStackOptions,
  governanceStack,
} from './governance-stack.js';
export {
  type HandoffRecord,
  type HandoffTargetKind,
  normalizeHandoff,
} from './handoff-record.js';
export {
  createMemoryIdempotencyStore,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './idempotency-store.js';
export { type LangfuseSinkOptions, langfuseSpanSink } from './telemetry/langfuse-span-sink.js';
export {
  type OtelApi,
  type OtelSpan,
  type OtelTracer,
  otelSpanSink,
} from './telemetry/otel-span-sink.js';
export {
  fanOutSpanSink,
  noopSpanSink,
  type SpanSink,
  stderrSpanSink,
} from './telemetry/span-sinks.js';
export {
  type LayerSpan,
  type SpanAttributeValue,
  type SpanEvent,
  type SpanOptions,
  type ToolCallSpan,
  toolCallSpan,
} from './telemetry/tool-call-span.js';
export { toolInjectParam } from './tool-inject-param.js';
export { type ToolTransform, toolsUseMiddleware } from './tools-use-middleware.js';
export {
  type AuditLogCaller,
  type AuditLogOptions,
  type ReceiptSink,
  withAuditLog,
} from './with-audit-log.js';
export { type BudgetOptions, type ToolBudget, withBudget } from './with-budget.js';
export {
  type ConsentDecision,
  type ConsentOptions,
  type ConsentPrompt,
  type ConsentRecord,
  consentDeniedResult,
  needsConsent,
  withConsent,
} from './with-consent.js';
export { type DryRunOptions, type DryRunPreview, withDryRun } from './with-dry-run.js';
export {
  type GuardrailCheck,
  type GuardrailInput,
  type GuardrailOutput,
  type GuardrailsOptions,
  type GuardrailVerdict,
  type ToolGuardrail,
  withGuardrails,
} from './with-guardrails.js';
export { type HandoffArtifactOptions, withHandoffArtifact } from './with-handoff-artifact.js';
export {
  type IdempotencyKey,
  type IdempotencyOptions,
  withIdempotency,
} from './with-idempotency.js';
export {
  type NaturalLanguageExecutor,
  naturalLanguageExecutorMiddleware,
  naturalLanguageExecutorSchemaTransform,
  withNaturalLanguageExecutor,
} from './with-natural-language-executor.js';
export { type RateLimitOptions, withRateLimit } from './with-rate-limit.js';
export {
  type RedactionInput,
  type RedactionOptions,
  type RedactionOutput,
  type Redactor,
  withRedaction,
} from './with-redaction.js';
export {
  NO_REASON_GIVEN,
  type RequiredReason,
  type RequiredReasonOptions,
  withRequiredReason,
} from './with-required-reason.js';
export {
  type ScopedExecutorOptions,
  withScopedExecutor,
} from './with-scoped-executor.js';
export { type SummaryFormat, withSummary } from './with-summary.js';
export {
  type TelemetryCaller,
  type TelemetryOptions,
  type TelemetrySink,
  withTelemetry,
} from './with-telemetry.js';
export { type TimeoutOptions, withTimeout } from './with-timeout.js';
