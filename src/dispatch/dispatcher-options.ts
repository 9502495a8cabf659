import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ExecutionPolicy } from './execution-policy.js';
import type { Executor, RuntimeValues } from './executor.js';
import type { ArtifactStore } from './render-output.js';
import type { ToolCaller } from './tool-caller.js';

/** Options of `createDispatcher`. */
export interface DispatcherOptions<Context = unknown> extends RuntimeValues {
  readonly registry: ToolRegistry;
  /** The middleware stack, usually `composeToolCallers([...])`. Default: none. */
  readonly caller?: ToolCaller;
  /** Handed to tools that list `context` in `injected`. */
  readonly context?: Context;
  /**
   * Executors for tools that do not run inline (a worker pool, MCP, a queue), by name. Inline
   * handlers run in the dispatcher itself: an executor named `inline` throws `InvalidOptionError`.
   */
  readonly executors?: readonly Executor[];
  /** Longest rendered result the model sees before output becomes an artifact. Default 20 000. */
  readonly maxRenderedChars?: number;
  /** Receives outputs too large for the model, in full. */
  readonly artifactStore?: ArtifactStore;
  /** Longest JSON argument text accepted, in characters. Default 1 MiB. */
  readonly maxArgumentChars?: number;
  /**
   * Deepest nesting of arguments accepted (the arguments object is level 1); deeper arguments are
   * refused as `schema_violation` before any layer walks them. Default 256.
   */
  readonly maxArgumentDepth?: number;
  /** Monotonic clock in ms. Default `performance.now`. */
  readonly now?: () => number;
  /** Wall clock in ms for the `at` of events. Default `Date.now`. */
  readonly wallClock?: () => number;
  /** Source of randomness for retry jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Waits between retries. Default: a timer that the call's signal cancels. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Generates ids for calls that arrive without one. Default `call_<uuid>`. */
  readonly generateCallId?: () => string;
  /**
   * The ambient execution policy: what any call may do. Turns and scoping layers can narrow it,
   * never widen it; the executor enforces it. Default: no restriction.
   */
  readonly policy?: ExecutionPolicy;
  /**
   * Scrub the values of `secrets` from what tools return, throw and report (results, progress
   * events, and everything built from them: receipts, spans, the next model request), replacing
   * each with `[redacted:<NAME>]`. Default true; `false` leaves tool output exactly as produced.
   */
  readonly scrubSecrets?: boolean;
}
