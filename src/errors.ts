// `switchyard/errors`: the one home of the core's error classes. Every file of the core imports
// its errors from here, never from src/errors/ directly; docs/errors.md lists each class and code.

export { ActorStoppedError } from './errors/actor-stopped-error.js';
export { CancelledError, ToolTimeoutError } from './errors/call-errors.js';
export { errorMessage } from './errors/error-message.js';
export { JournalBusyError, JournalDecisionError } from './errors/journal-errors.js';
export {
  BinderFailureError,
  HandoffArtifactError,
  NextCalledTwiceError,
  RedactorFailureError,
  ScopeViolationError,
} from './errors/middleware-errors.js';
export {
  InvalidArgumentError,
  InvalidOptionError,
  MissingPeerDependencyError,
  ToolDefinitionError,
} from './errors/misuse-errors.js';
export { ModelError } from './errors/model-error.js';
export { SwitchyardError } from './errors/switchyard-error.js';
