// The package root: what a first-time user needs to define tools, dispatch their calls through
// middleware, run turns and agent loops, and catch errors. Everything else lives in a documented
// subpath (`switchyard/middleware`, `/receipts`, `/executors`, `/providers/openai`,
// `/providers/anthropic`, `/detectors`, `/actors`, `/dispatch`, `/tools`, `/testing`). Importing the
// root loads neither provider SDK nor the worker pool.

export { agentLoop } from './agent/agent-loop.js';
export {
  type AgentEvent,
  type AgentLoopEvent,
  type AgentLoopOptions,
  type AgentRun,
  type AgentStatus,
  type AgentTurn,
  DONE_MARKER,
} from './agent/agent-types.js';
export { withLoopGuard } from './agent/loop-guard.js';
export { type AuditData, type AuditLayer, mergeAudit } from './dispatch/audit.js';
export {
  type DenialDetails,
  retryableDenial,
  type ToolDenial,
  terminalDenial,
} from './dispatch/denials.js';
export {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type TurnOptions,
} from './dispatch/dispatcher.js';
export type { ToolCallEnvelope, TurnInfo } from './dispatch/envelope.js';
export { isRecoverable, type ToolCallErrorCategory } from './dispatch/error-taxonomy.js';
export type { ToolCallEvent } from './dispatch/events.js';
export { narrowExecutionPolicy, withExecutionPolicy } from './dispatch/execution-policy.js';
export type { ModelTokens } from './dispatch/model-token-share.js';
export { type ProposedCall, toProposedCall } from './dispatch/proposed-call.js';
export {
  shortCircuitResult,
  type ToolCallResult,
  type ToolCallStatus,
} from './dispatch/result.js';
export type { Next, ToolCaller } from './dispatch/tool-caller.js';
export { type ToolOutput, toolOutput } from './dispatch/tool-output.js';
export {
  ActorStoppedError,
  BinderFailureError,
  CancelledError,
  HandoffArtifactError,
  InvalidArgumentError,
  InvalidOptionError,
  MissingPeerDependencyError,
  ModelError,
  ScopeViolationError,
  SwitchyardError,
  ToolDefinitionError,
  ToolTimeoutError,
} from './errors.js';
export { composeToolCallers } from './middleware/compose-tool-callers.js';
export { governanceStack } from './middleware/governance-stack.js';
export { toolInjectParam } from './middleware/tool-inject-param.js';
export { toolsUseMiddleware } from './middleware/tools-use-middleware.js';
export { withAuditLog } from './middleware/with-audit-log.js';
export { withBudget } from './middleware/with-budget.js';
export { withConsent } from './middleware/with-consent.js';
export { withDryRun } from './middleware/with-dry-run.js';
export { withGuardrails } from './middleware/with-guardrails.js';
export { withHandoffArtifact } from './middleware/with-handoff-artifact.js';
export { withIdempotency } from './middleware/with-idempotency.js';
export { withNaturalLanguageExecutor } from './middleware/with-natural-language-executor.js';
export { withRateLimit } from './middleware/with-rate-limit.js';
export { withRedaction } from './middleware/with-redaction.js';
export { withRequiredReason } from './middleware/with-required-reason.js';
export { withScopedExecutor } from './middleware/with-scoped-executor.js';
export { withSummary } from './middleware/with-summary.js';
export { withTelemetry } from './middleware/with-telemetry.js';
export { withTimeout } from './middleware/with-timeout.js';
export type { ModelClient, TranscriptMessage } from './providers/model-client.js';
export { dispatchCalls } from './streams/dispatch-calls.js';
export { dispatchTurn, streamTurn, type TurnCallsOptions } from './streams/dispatch-turn.js';
export { dispatchStreamedTurn, type StreamedTurn } from './streams/streamed-turn.js';
export type { DispatchTurnOptions } from './streams/turn-options.js';
export { defineTool } from './tools/define-tool.js';
export type { JsonObject, JsonSchema, JsonValue } from './tools/json.js';
export type { ToolCost, ToolUsage } from './tools/tool-cost.js';
export { createToolRegistry, type ToolRegistry } from './tools/tool-registry.js';
export type {
  Tool,
  ToolHandler,
  ToolRuntime,
  ToolSafety,
  ToolSpec,
} from './tools/tool-spec.js';
