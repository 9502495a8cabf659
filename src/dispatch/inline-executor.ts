import type { ToolCost } from '../tools/tool-cost.js';
import type { ToolProgress, ToolRuntime, ToolTurnFacts } from '../tools/tool-spec.js';
import type { ExecutionOutcome, ExecutionRequest, Executor } from './executor.js';
import { derivedIdempotencyKey } from './idempotency-key.js';

/**
 * The runtime a handler receives. The request stays in a true private field: a handler must not
 * reach values (secrets) its tool did not list in `injected`.
 */
class InlineRuntime implements ToolRuntime {
  readonly callId: string;
  readonly toolName: string;
  readonly turn: ToolTurnFacts;
  readonly context: unknown;
  readonly stores: Readonly<Record<string, unknown>> | undefined;
  readonly secrets: Readonly<Record<string, string>> | undefined;
  readonly #request: ExecutionRequest;

  constructor(request: ExecutionRequest) {
    const { tool, values } = request;
    const injected = tool.injected;
    this.callId = request.callId;
    this.toolName = tool.name;
    this.turn = request.turn;
    this.context = injected.includes('context') ? values.context : undefined;
    this.stores = injected.includes('stores') ? values.stores : undefined;
    this.secrets = injected.includes('secrets') ? values.secrets : undefined;
    this.#request = request;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  get idempotencyKey(): string {
    const request = this.#request;
    return request.idempotencyKey ?? derivedIdempotencyKey(request.turn, request.callId);
  }

  emit(progress: ToolProgress): void {
    this.#request.emit(progress);
  }

  reportCost(cost: ToolCost): void {
    this.#request.reportCost(cost);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs an inline tool's handler on this thread. The outcome itself when the handler returned a
 * value or threw (the dispatcher's one fast path: such a call waits for no turn of the microtask
 * queue, see `CallAttempt.run`), else a promise of it that settles as soon as the call aborts.
 */
export function runInline(request: ExecutionRequest): ExecutionOutcome | Promise<ExecutionOutcome> {
  const handler = request.tool.handler;
  if (handler === undefined) {
    return { ok: false, error: new Error(`tool "${request.tool.name}" has no inline handler`) };
  }
  let value: unknown;
  try {
    value = handler.call(request.tool, request.args, new InlineRuntime(request));
  } catch (error) {
    return { ok: false, error };
  }
  if (!isPromiseLike(value)) return { ok: true, value };
  return (
    request.abortable ? Promise.race([value, request.whenAborted()]) : Promise.resolve(value)
  ).then(succeeded, failed);
}

function succeeded(value: unknown): ExecutionOutcome {
  return { ok: true, value };
}

function failed(error: unknown): ExecutionOutcome {
  return { ok: false, error };
}

/**
 * Runs handlers on the main thread. The handler sees the call's signal; when the call times out
 * or is cancelled the executor stops waiting at once. A handler that ignores its signal keeps
 * running in the background (JavaScript cannot stop it): use a worker executor for hard stops.
 */
export function createInlineExecutor(): Executor {
  return { name: 'inline', execute: (request) => Promise.resolve(runInline(request)) };
}
