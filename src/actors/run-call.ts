// One tool call in a worker thread: its handler, the runtime it sees, its outcome (batching aside).
import { parentPort } from 'node:worker_threads';
import { derivedIdempotencyKey } from '../dispatch/idempotency-key.js';
import { ToolDefinitionError } from '../errors.js';
import { CostTally, type ToolCost } from '../tools/tool-cost.js';
import type { ToolProgress, ToolRuntime, ToolTurnFacts } from '../tools/tool-spec.js';
import { deepFreeze } from './deep-freeze.js';
import { toErrorData } from './error-data.js';
import type { ChannelMessage, HiddenValues, WorkerCall, WorkerOutcome } from './worker-protocol.js';

type Handler = (args: unknown, runtime: unknown) => unknown;

/** Handlers by module URL, then export name: each module is imported once per worker. */
const handlers = new Map<string, Map<string, Handler>>();
const NEVER_ABORTED = new AbortController().signal;
/**
 * Posts a progress event or a result notice to the main thread, on this worker's own port: it
 * reaches the pool alone, not the other workers.
 */
export function postToPool(message: ChannelMessage): void {
  parentPort?.postMessage(message);
}

/** The handler of a call: synchronously once its module is loaded. */
function handlerFor(call: WorkerCall): Handler | Promise<Handler> {
  return handlers.get(call.module)?.get(call.exportName) ?? loadHandler(call);
}

async function loadHandler(call: WorkerCall): Promise<Handler> {
  const module = await importToolModule(call);
  const exported = module[call.exportName];
  if (typeof exported !== 'function') {
    throw new ToolDefinitionError(
      `worker tool "${call.toolName}": ${call.module} has no function export "${call.exportName}"`,
      { rule: 'worker_export', toolName: call.toolName },
    );
  }
  let exports = handlers.get(call.module);
  if (exports === undefined) {
    exports = new Map();
    handlers.set(call.module, exports);
  }
  exports.set(call.exportName, exported as Handler);
  return exported as Handler;
}

/**
 * A tool module, `.ts` ones included: Node ≥ 22.18 strips their types. Syntax it would have to
 * transform instead (enums, namespaces, parameter properties) fails with a definition error that
 * says what loads it.
 */
async function importToolModule(call: WorkerCall): Promise<Record<string, unknown>> {
  try {
    return (await import(call.module)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') throw error;
    throw new ToolDefinitionError(
      `worker tool "${call.toolName}": ${call.module}: ${(error as Error).message}; Node strips TypeScript types but does not transform enums, namespaces or parameter properties: give the pool execArgv ['--experimental-transform-types'] (or ['--import', 'tsx'] with tsx installed), or compile the module to .js`,
      { rule: 'worker_typescript', toolName: call.toolName, cause: error },
    );
  }
}

/** What a handler receives in a worker (a class: one shape, nothing allocated per accessor). */
class WorkerRuntime implements ToolRuntime {
  readonly callId: string;
  readonly toolName: string;
  readonly turn: ToolTurnFacts;
  readonly context: unknown;
  readonly stores = undefined;
  readonly secrets: Readonly<Record<string, string>> | undefined;
  readonly #ticket: number;
  readonly #idempotencyKey: string | null;
  /** Progress and cost messages this call posted. */
  #posted = 0;
  /** Checks this call's cost reports here, so the handler sees a bad one; null until one. */
  #costs: CostTally | null = null;

  constructor(call: WorkerCall, hidden: HiddenValues | null | undefined) {
    this.callId = call.callId;
    this.toolName = call.toolName;
    this.turn = call.turn;
    this.context = hidden?.context === undefined ? undefined : deepFreeze(hidden.context);
    this.secrets = hidden?.secrets === undefined ? undefined : Object.freeze(hidden.secrets);
    this.#ticket = call.ticket;
    this.#idempotencyKey = call.idempotencyKey;
  }

  get idempotencyKey(): string {
    return this.#idempotencyKey ?? derivedIdempotencyKey(this.turn, this.callId);
  }

  /** Hard stops terminate the worker: the handler's signal never needs to fire here. */
  get signal(): AbortSignal {
    return NEVER_ABORTED;
  }

  /** Progress and cost messages the call posted (read by the worker, out of the handler's reach). */
  static progressOf(runtime: WorkerRuntime): number {
    return runtime.#posted;
  }

  emit(progress: ToolProgress): void {
    this.#posted += 1;
    postToPool({ type: 'progress', ticket: this.#ticket, progress });
  }

  reportCost(cost: ToolCost): void {
    this.#costs ??= new CostTally();
    this.#costs.add(cost);
    // Counted with the progress messages: the main thread settles the call after it has seen both.
    this.#posted += 1;
    postToPool({
      type: 'cost',
      ticket: this.#ticket,
      cost: { usd: cost.usd, units: cost.units, unit: cost.unit },
    });
  }
}

/**
 * Runs one call. Returns its outcome directly when the handler is loaded and returns a plain value,
 * so a batch of synchronous calls never waits on a promise; otherwise a promise of it.
 */
export function runCall(
  call: WorkerCall,
  hidden: HiddenValues | null | undefined,
): WorkerOutcome | Promise<WorkerOutcome> {
  const runtime = new WorkerRuntime(call, hidden);
  try {
    const found = handlerFor(call);
    const value =
      found instanceof Promise
        ? found.then((handler) => handler(call.args, runtime))
        : found(call.args, runtime);
    if (value instanceof Promise) {
      return value.then(
        (settled) => succeeded(runtime, settled),
        (error) => failed(runtime, error),
      );
    }
    return succeeded(runtime, value);
  } catch (error) {
    return failed(runtime, error);
  }
}

function succeeded(runtime: WorkerRuntime, value: unknown): WorkerOutcome {
  return { ok: true, value, progress: WorkerRuntime.progressOf(runtime) };
}

function failed(runtime: WorkerRuntime, error: unknown): WorkerOutcome {
  return { ok: false, error: toErrorData(error), progress: WorkerRuntime.progressOf(runtime) };
}
