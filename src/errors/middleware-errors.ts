import type { BinderStatus } from '../middleware/binder/binder-types.js';
import { errorMessage } from './error-message.js';
import { SwitchyardError } from './switchyard-error.js';

/**
 * A middleware layer called `next()` a second time for one call. A call executes at most once per
 * dispatch, so the second `next()` rejects with this error instead of running the rest of the
 * stack again; inside `composeToolCallers` the layer's call then yields a
 * `tool_middleware_exception` result naming the layer. Retries belong to a tool's retry policy.
 */
export class NextCalledTwiceError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_NEXT_CALLED_TWICE';
  static readonly FORMER_CODES: readonly string[] = ['next_called_twice'];
  readonly code = NextCalledTwiceError.CODE;
  /** The layer that called `next()` twice (its function name), or `caller` for a hand-built one. */
  readonly layer: string;

  constructor(layer: string) {
    super(
      `${layer} called next() more than once for one call; a call executes at most once per dispatch (use the tool's retry policy to repeat it)`,
    );
    this.layer = layer;
  }
}

/** Thrown by `withScopedExecutor({ onViolation: 'raise' })` for a call outside its scope. */
export class ScopeViolationError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_SCOPE_VIOLATION';
  static readonly FORMER_CODES: readonly string[] = ['scope_violation'];
  readonly code = ScopeViolationError.CODE;
  readonly stage: string;
  readonly toolName: string;
  readonly callId: string;

  constructor(reason: string, details: { stage: string; toolName: string; callId: string }) {
    super(`scope_violation: ${reason}`);
    this.stage = details.stage;
    this.toolName = details.toolName;
    this.callId = details.callId;
  }
}

/**
 * Thrown by the binder middleware with `onFailure: 'raise'`. The message is
 * `with_natural_language_executor: <reason>`; inside `composeToolCallers` it becomes a
 * `tool_middleware_exception` result, bare it reaches the dispatcher (an `exception` result).
 */
export class BinderFailureError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_BINDER_FAILURE';
  static readonly FORMER_CODES: readonly string[] = ['binder_failure'];
  readonly code = BinderFailureError.CODE;
  /** What went wrong: `timeout`, `transport_error` or `schema_error`. */
  readonly status: Exclude<BinderStatus, 'ok' | 'skipped'>;
  readonly reason: string;
  readonly toolName: string;
  readonly callId: string;

  constructor(details: {
    status: Exclude<BinderStatus, 'ok' | 'skipped'>;
    reason: string;
    toolName: string;
    callId: string;
    cause?: unknown;
  }) {
    super(`with_natural_language_executor: ${details.reason}`, { cause: details.cause });
    this.status = details.status;
    this.reason = details.reason;
    this.toolName = details.toolName;
    this.callId = details.callId;
  }
}

/** A handoff payload could not be read (thrown only by `withHandoffArtifact({ strict: true })`). */
export class HandoffArtifactError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_INVALID_HANDOFF';
  static readonly FORMER_CODES: readonly string[] = ['invalid_handoff'];
  readonly code = HandoffArtifactError.CODE;
  readonly toolName: string;

  constructor(message: string, toolName: string) {
    super(`withHandoffArtifact: ${message}`);
    this.toolName = toolName;
  }
}

/**
 * A redactor of `withRedaction` threw or answered with a value it may not. Never reaches the
 * caller: the layer fails closed (the call is blocked, or its output withheld) and the message is
 * the layer's audit entry's `error`.
 */
export class RedactorFailureError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_REDACTOR_FAILURE';
  readonly code = RedactorFailureError.CODE;

  constructor(cause: unknown) {
    super(errorMessage(cause), { cause });
  }
}
