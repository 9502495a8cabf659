// The public surface of Switchyard, by name.

export * from './actors/index.js';
export * from './agent/index.js';
export { type AuditData, type AuditLayer, mergeAudit } from './dispatch/audit.js';
export { classifyError } from './dispatch/classify-error.js';
export {
  type DenialGate,
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
export type {
  CallAnnotations,
  CallValidation,
  ExecutorName,
  ToolCallEnvelope,
  TurnInfo,
} from './dispatch/envelope.js';
export {
  fromInternal,
  type InternalErrorCategory,
  isRecoverable,
  isTransient,
  TOOL_CALL_ERROR_CATEGORIES,
  type ToolCallErrorCategory,
  toWireCategory,
} from './dispatch/error-taxonomy.js';
export type {
  ToolCallAuditEvent,
  ToolCallEvent,
  ToolCallFinishedEvent,
  ToolCallInProgressEvent,
  ToolCallProgressEvent,
  ToolCallStartedEvent,
} from './dispatch/events.js';
export type {
  ExecutionOutcome,
  ExecutionRequest,
  Executor,
  RuntimeValues,
} from './dispatch/executor.js';
export { createInlineExecutor } from './dispatch/inline-executor.js';
export { type ProposedCall, toProposedCall } from './dispatch/proposed-call.js';
export type { ArtifactStore } from './dispatch/render-output.js';
export {
  type ArtifactRef,
  type ContentBlock,
  cancelledResult,
  exceptionResult,
  RESERVED_STATUSES,
  type ReservedStatus,
  type ShortCircuitFields,
  shortCircuitResult,
  type ToolCallResult,
  type ToolCallStatus,
} from './dispatch/result.js';
export type { Next, ToolCaller } from './dispatch/tool-caller.js';
export { isToolOutput, type ToolOutput, toolOutput } from './dispatch/tool-output.js';
export {
  CancelledError,
  InvalidOptionError,
  ModelError,
  SwitchyardError,
  ToolDefinitionError,
  ToolTimeoutError,
} from './errors.js';
export * from './middleware/index.js';
export * from './providers/anthropic/index.js';
export type {
  AssistantMessage,
  ModelClient,
  ModelRequest,
  ToolResultsMessage,
  TranscriptMessage,
  TranscriptToolCall,
  TranscriptToolResult,
  UserMessage,
} from './providers/model-client.js';
export * from './providers/openai/index.js';
export { abortedTurn, modelError, toModelError } from './providers/provider-errors.js';
export * from './providers/scripted/index.js';
export * from './streams/index.js';
export { canonicalHash, canonicalJson, sha256Hex } from './tools/canonical-json.js';
export { defineTool } from './tools/define-tool.js';
export type { JsonObject, JsonSchema, JsonValue } from './tools/json.js';
export type { SchemaIssue } from './tools/repair-message.js';
export { type ArgumentCheck, SchemaValidator } from './tools/schema-validator.js';
export {
  assertToolName,
  FOREIGN_TOOL_NAME_PATTERN,
  providerSafeAlias,
  TOOL_NAME_PATTERN,
} from './tools/tool-names.js';
export {
  type AnyTool,
  type AnyToolSpec,
  createToolRegistry,
  type ModelToolDefinition,
  ToolRegistry,
  type ToolRegistryOptions,
} from './tools/tool-registry.js';
export { deriveKind, resolveSafety, sideEffectRank } from './tools/tool-safety.js';
export type {
  InjectedName,
  ResolvedSafety,
  RetryPolicy,
  SideEffectLevel,
  Tool,
  ToolExecutorSpec,
  ToolHandler,
  ToolKind,
  ToolProgress,
  ToolRuntime,
  ToolSafety,
  ToolSpec,
  ToolTurnFacts,
} from './tools/tool-spec.js';
export { SIDE_EFFECT_LEVELS, TOOL_KINDS } from './tools/tool-spec.js';
