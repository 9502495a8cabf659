import type { ToolRuntime } from '../tools/tool-spec.js';
import type { ExecutionOutcome, ExecutionRequest, Executor } from './executor.js';

function runtimeFor(request: ExecutionRequest): ToolRuntime {
  const { tool, values } = request;
  const injected = tool.injected;
  return {
    callId: request.callId,
    toolName: tool.name,
    get signal() {
      return request.signal;
    },
    turn: request.turn,
    context: injected.includes('context') ? values.context : undefined,
    stores: injected.includes('stores') ? values.stores : undefined,
    secrets: injected.includes('secrets') ? values.secrets : undefined,
    emit: (progress) => request.emit(progress),
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs handlers on the main thread. The handler sees the call's signal; when the call times out
 * or is cancelled the executor stops waiting at once. A handler that ignores its signal keeps
 * running in the background (JavaScript cannot stop it): use a worker executor for hard stops.
 */
export function createInlineExecutor(): Executor {
  return {
    name: 'inline',
    async execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
      const handler = request.tool.handler;
      if (handler === undefined) {
        return { ok: false, error: new Error(`tool "${request.tool.name}" has no inline handler`) };
      }
      try {
        let value = handler.call(request.tool, request.args, runtimeFor(request));
        if (isPromiseLike(value)) {
          value = request.abortable
            ? await Promise.race([value, request.whenAborted()])
            : await value;
        }
        return { ok: true, value };
      } catch (error) {
        return { ok: false, error };
      }
    },
  };
}
