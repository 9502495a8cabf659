import type { InternalErrorCategory } from '../dispatch/error-taxonomy.js';
import { SwitchyardError } from './switchyard-error.js';

/**
 * A model provider failed a turn: an HTTP error, an error frame mid-stream, a lost connection or
 * a timeout. `category` is the internal classification (`rate_limit`, `overloaded`, `auth`,
 * `timeout`, `transient_network`, …); `retryable` says whether asking again later may succeed.
 */
export class ModelError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_MODEL';
  static readonly FORMER_CODES: readonly string[] = ['model_error'];
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
