import type { JsonObject } from '../tools/json.js';
import type { ToolCost } from '../tools/tool-cost.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import type { ExecutorName, TurnInfo } from './envelope.js';

/** Hidden values a dispatcher hands to the handlers that ask for them through `injected`. */
export interface RuntimeValues {
  readonly context?: unknown;
  readonly stores?: Readonly<Record<string, unknown>>;
  readonly secrets?: Readonly<Record<string, string>>;
}

/** One execution of a tool, as an executor receives it. */
export interface ExecutionRequest {
  readonly tool: AnyTool;
  readonly args: JsonObject;
  readonly callId: string;
  readonly turn: TurnInfo;
  /**
   * The call's idempotency key, for the handler's runtime (`ToolRuntime.idempotencyKey`). An
   * executor that carries calls elsewhere (a queue, a worker) passes it along. When absent, the
   * runtime derives one from the call id and turn facts.
   */
  readonly idempotencyKey?: string;
  /**
   * Aborts on the call's timeout (reason: `ToolTimeoutError`) or cancellation (reason:
   * `CancelledError`). An executor must settle promptly once it aborts; its outcome is then ignored.
   */
  readonly signal: AbortSignal;
  /** Settles (rejects) when `signal` aborts; lets an executor race without a listener per call. */
  whenAborted(): Promise<never>;
  /** True when this execution can be aborted at all (it has a timeout or a cancellable parent). */
  readonly abortable: boolean;
  readonly values: RuntimeValues;
  /** Reports the tool's progress (a `tool_call_progress` event). */
  emit(progress: ToolProgress): void;
  /**
   * Adds what the handler reported it spent to the call's usage. Throws `InvalidArgumentError` on
   * a cost it cannot add (see `ToolRuntime.reportCost`); an executor that carries reports from
   * elsewhere checks them where the handler runs, so the handler sees the error.
   */
  reportCost(cost: ToolCost): void;
  /**
   * The handler starts now: arms the tool's `timeoutMs` for executors with `timesExecution`
   * (a no-op otherwise, and after the first call).
   */
  started?(): void;
}

/** An executor's own failure (a crashed worker, a lost transport): the call's outcome is not the tool's. */
export interface ExecutorFailure {
  readonly message: string;
  /** A crashed worker's exit code, kept on the result's `result` for the application (and receipts). */
  readonly exitCode?: number;
  /** The result's category. Default `executor_error`; an MCP transport failure says `mcp_server_error`. */
  readonly errorCategory?: string;
  /**
   * The tool may or may not have taken effect (its worker died mid-call, its job vanished):
   * the result's status is `in_doubt`, which a journaled run surfaces instead of moving on.
   */
  readonly inDoubt?: boolean;
}

/** What an execution produced: the handler's value, or what it threw (as data). */
export type ExecutionOutcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: unknown;
      /** Set when the executor itself failed (a crashed worker), not the tool. */
      readonly executorFailure?: ExecutorFailure;
    };

/** Runs tool handlers somewhere: on the main thread, in a worker pool, on a remote server. */
export interface Executor {
  readonly name: ExecutorName;
  /**
   * The executor queues calls and calls `request.started()` when each handler starts, so a tool's
   * `timeoutMs` counts its execution, not its wait for a free worker. Default false: the time
   * limit runs from the moment the call is handed to `execute`.
   */
  readonly timesExecution?: boolean;
  /**
   * Runs one call; resolves to its outcome whatever happens (never rejects for what the tool did).
   */
  execute(request: ExecutionRequest): Promise<ExecutionOutcome>;
}
