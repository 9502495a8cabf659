import type { AuditData } from './dispatch/audit.js';
import type { InternalErrorCategory } from './dispatch/error-taxonomy.js';

/**
 * Exceptions are for misuse (bad options, a broken contract) and for cancellation. What happens
 * to a tool call is a result, never an exception.
 *
 * `isInstance` checks a global brand and the stable `code`, so they hold across duplicate installs
 * of this package and across worker threads (where errors are rebuilt from plain data).
 */
const BRAND = Symbol.for('switchyard.error');

export abstract class SwitchyardError extends Error {
  /** Stable machine-readable code; one per class. */
  abstract readonly code: string;
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** True when `value` is a Switchyard error of this class (by brand and code). */
  static isInstance<T extends SwitchyardError>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ): value is T {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<PropertyKey, unknown>)[BRAND] !== true) return false;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance is called on.
    const expected = (this as unknown as { readonly CODE?: string }).CODE;
    return expected === undefined || (value as { code?: unknown }).code === expected;
  }
}

/** A tool spec, registry or schema is invalid. Names the broken `rule`. */
export class ToolDefinitionError extends SwitchyardError {
  static readonly CODE = 'invalid_tool_definition';
  readonly code = ToolDefinitionError.CODE;
  readonly rule: string;
  readonly toolName: string | undefined;

  constructor(message: string, details: { rule: string; toolName?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.rule = details.rule;
    this.toolName = details.toolName;
  }
}

/** An option passed to a factory (dispatcher, middleware) is invalid. Names the `option`. */
export class InvalidOptionError extends SwitchyardError {
  static readonly CODE = 'invalid_option';
  readonly code = InvalidOptionError.CODE;
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/**
 * An optional peer dependency that a subpath needs is not installed. Names the `packageName` to
 * install and the `feature` that needs it.
 */
export class MissingPeerDependencyError extends SwitchyardError {
  static readonly CODE = 'missing_peer_dependency';
  readonly code = MissingPeerDependencyError.CODE;
  readonly packageName: string;
  readonly feature: string;

  constructor(packageName: string, feature: string, options?: { cause?: unknown }) {
    super(`${feature} needs the package "${packageName}": npm install ${packageName}`, options);
    this.packageName = packageName;
    this.feature = feature;
  }
}

/**
 * The call was cancelled (turn aborted, sibling failure, caller gave up). Always propagates through
 * middleware; the dispatcher turns it into a `cancelled` result.
 */
export class CancelledError extends SwitchyardError {
  static readonly CODE = 'cancelled';
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
  static readonly CODE = 'timeout';
  readonly code = ToolTimeoutError.CODE;
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super(`tool ${JSON.stringify(toolName)} exceeded its time limit of ${timeoutMs} ms`);
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A model provider failed a turn: an HTTP error, an error frame mid-stream, a lost connection or
 * a timeout. `category` is the internal classification (`rate_limit`, `overloaded`, `auth`,
 * `timeout`, `transient_network`, …); `retryable` says whether asking again later may succeed.
 */
export class ModelError extends SwitchyardError {
  static readonly CODE = 'model_error';
  readonly code = ModelError.CODE;
  readonly provider: string;
  readonly category: InternalErrorCategory;
  /** The HTTP status, when the provider answered with one. */
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(
    message: string,
    details: {
      provider: string;
      category: InternalErrorCategory;
      status?: number;
      retryable: boolean;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.category = details.category;
    this.status = details.status;
    this.retryable = details.retryable;
  }
}

/** Turns anything thrown into a message string without throwing itself. */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message || error.name);
    if (typeof error === 'string') return error;
    return JSON.stringify(error) ?? String(error);
  } catch {
    // A thrown value whose getters, `toJSON` or `toString` throw in turn.
    try {
      return String(error);
    } catch {
      return 'an error that cannot be described';
    }
  }
}

/**
 * A value handed to a function breaks its contract: what canonical JSON cannot write (a cycle),
 * a transcript message with an unknown role, a detector event of an unknown type. Names the
 * `argument`. (A factory's bad option is an `InvalidOptionError`.)
 */
export class InvalidArgumentError extends SwitchyardError {
  static readonly CODE = 'invalid_argument';
  readonly code = InvalidArgumentError.CODE;
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(message);
    this.argument = argument;
  }
}

/**
 * A run's journal is open in another live process: a run has one writer at a time. Names the
 * `runId` and, when known, who holds it (`holder`, e.g. `pid 4242 on host-a`).
 */
export class JournalBusyError extends SwitchyardError {
  static readonly CODE = 'journal_busy';
  readonly code = JournalBusyError.CODE;
  readonly runId: string;
  readonly holder: string | undefined;

  constructor(runId: string, holder?: string) {
    super(
      `the journal of run ${JSON.stringify(runId)} is open in another process${holder === undefined ? '' : ` (${holder})`}; a run has one writer at a time`,
    );
    this.runId = runId;
    this.holder = holder;
  }
}

/**
 * A decision on a pending approval, or the resolution of an in-doubt call, that the journal
 * refuses. `reason` says why: `unknown_call` (no such pending approval or in-doubt call),
 * `ambiguous_call` (several match the call id: name the key), `expired` (the approval lapsed),
 * `already_decided` (a different decision holds), `changed_arguments` or `other_tool` (the
 * decision was made for another version of the call), `not_in_doubt`.
 */
export class JournalDecisionError extends SwitchyardError {
  static readonly CODE = 'journal_decision';
  readonly code = JournalDecisionError.CODE;
  readonly reason:
    | 'unknown_call'
    | 'ambiguous_call'
    | 'expired'
    | 'already_decided'
    | 'changed_arguments'
    | 'other_tool'
    | 'not_in_doubt';
  readonly callId: string;

  constructor(reason: JournalDecisionError['reason'], callId: string, message: string) {
    super(message);
    this.reason = reason;
    this.callId = callId;
  }
}
