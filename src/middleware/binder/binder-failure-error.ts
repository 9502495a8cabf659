import { SwitchyardError } from '../../errors.js';
import type { BinderStatus } from './binder-types.js';

/**
 * Thrown by the binder middleware with `onFailure: 'raise'`. The message is
 * `with_natural_language_executor: <reason>`; inside `composeToolCallers` it becomes a
 * `tool_middleware_exception` result, bare it reaches the dispatcher (an `exception` result).
 */
export class BinderFailureError extends SwitchyardError {
  static readonly CODE = 'binder_failure';
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
