// `switchyard/dispatch`: the parts of one call's path for users who build on it: the error
// taxonomy, result builders, denials, execution policies, the envelope and event types.

export { type AuditData, type AuditLayer, mergeAudit } from './audit.js';
export { classifyError } from './classify-error.js';
export {
  type DenialGate,
  retryableDenial,
  type ToolDenial,
  terminalDenial,
} from './denials.js';
export {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type TurnOptions,
} from './dispatcher.js';
export type {
  CallAnnotations,
  CallValidation,
  ExecutorName,
  ToolCallEnvelope,
  TurnInfo,
} from './envelope.js';
export {
  fromInternal,
  type InternalErrorCategory,
  isRecoverable,
  isTransient,
  TOOL_CALL_ERROR_CATEGORIES,
  type ToolCallErrorCategory,
  toWireCategory,
} from './error-taxonomy.js';
export type {
  ToolCallAuditEvent,
  ToolCallEvent,
  ToolCallFinishedEvent,
  ToolCallInProgressEvent,
  ToolCallProgressEvent,
  ToolCallStartedEvent,
} from './events.js';
export {
  type ExecutionPolicy,
  intersectPolicies,
  narrowExecutionPolicy,
  type PolicySubject,
  policyDenial,
  requiredCapabilities,
  withExecutionPolicy,
} from './execution-policy.js';
export type { ModelTokens } from './model-token-share.js';
export { type ProposedCall, toProposedCall } from './proposed-call.js';
export { type ArtifactStore, contentText } from './render-output.js';
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
} from './result.js';
export type { Next, ToolCaller } from './tool-caller.js';
export { isToolOutput, type ToolOutput, toolOutput } from './tool-output.js';
