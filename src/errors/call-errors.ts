import type { AuditData } from '../dispatch/audit.js';
import { SwitchyardError } from './switchyard-error.js';

/**
 * The call was cancelled (turn aborted, sibling failure, caller gave up). Always propagates through
 * middleware; the dispatcher turns it into a `cancelled` result.
 */
export class CancelledError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_CANCELLED';
  static readonly FORMER_CODES: readonly string[] = ['cancelled'];
  readonly code = CancelledError.CODE;
  readonly reason: unknown;
  /**
   * What observing layers (audit, receipts) recorded for the one call this error cancels; the
   * dispatcher puts it on the call's `cancelled` result. A turn's shared cancellation carries none:
   * a layer that records wraps it in a cancellation of its own call (`withCallAudit`).
   */
  readonly audit: AuditData | undefined;

  constructor(message = 'tool call cancelled', reason?: unknown, audit?: AuditData) {
    super(message, { cause: reason });
    this.reason = reason;
    this.audit = audit;
  }

  /** This cancellation, for one call, carrying `audit` (a new error: the original may be shared). */
  withCallAudit(audit: AuditData): CancelledError {
    return new CancelledError(this.message, this.reason, audit);
  }
}

/** The abort reason of a call that outlived its `timeoutMs`. */
export class ToolTimeoutError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_TOOL_TIMEOUT';
  static readonly FORMER_CODES: readonly string[] = ['timeout'];
  readonly code = ToolTimeoutError.CODE;
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super(`tool ${JSON.stringify(toolName)} exceeded its time limit of ${timeoutMs} ms`);
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}
