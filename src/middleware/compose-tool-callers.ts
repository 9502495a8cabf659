import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { exceptionResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError } from '../errors.js';

function isCancellation(error: unknown, call: ToolCallEnvelope): boolean {
  if (CancelledError.isInstance(error)) return true;
  if (error instanceof Error && error.name === 'AbortError') return true;
  return call.signal?.aborted === true && error === call.signal.reason;
}

/** Wraps one layer so that its exception becomes a result its outer layers still see. */
function trapped(layer: ToolCaller): ToolCaller {
  const name = layer.name || 'tool_caller';
  return (call, next) => {
    let pending: Promise<ToolCallResult>;
    try {
      pending = layer(call, next);
    } catch (error) {
      if (isCancellation(error, call)) return Promise.reject(error);
      return Promise.resolve(exceptionResult(call, error, { layer: name }));
    }
    // A layer written without `async` may hand back a plain result: take it as one, instead of
    // failing in `.then` and blaming the layer outside it.
    return Promise.resolve(pending).then(undefined, (error: unknown) => {
      if (isCancellation(error, call)) throw error;
      return exceptionResult(call, error, { layer: name });
    });
  };
}

/**
 * Composes middleware into one caller. **The first listed is the outermost**: it sees the call
 * first and the result last (koa order: `a, b, c` runs `a → b → c → executor → c → b → a`).
 *
 * A layer that throws yields a `tool_middleware_exception` result that the layers outside it still
 * see and decorate; cancellation is never trapped and always propagates. An empty list is a
 * pass-through.
 *
 * @example
 * const caller = composeToolCallers([withAuditLog('local'), withConsent(ask), withRateLimit({ maxCalls: 100 })]);
 */
export function composeToolCallers(layers: readonly ToolCaller[]): ToolCaller {
  if (!Array.isArray(layers)) return passThrough;
  layers.forEach((layer, index) => {
    if (typeof layer !== 'function') {
      throw new TypeError(
        `composeToolCallers: layer ${index} must be a function (call, next) => result`,
      );
    }
  });
  if (layers.length === 0) return passThrough;
  const wrapped = layers.map(trapped);
  // The chain depends only on `bottom`, which a dispatcher passes unchanged on every call: build
  // it once per distinct bottom instead of allocating a closure per layer per call.
  let chainBottom: Next | undefined;
  let chain: Next = (call) => Promise.reject(new Error(`no chain for ${call.callId}`));
  return function composedToolCaller(
    call: ToolCallEnvelope,
    bottom: Next,
  ): Promise<ToolCallResult> {
    if (bottom !== chainBottom) {
      chain = buildChain(wrapped, bottom);
      chainBottom = bottom;
    }
    return chain(call);
  };
}

function buildChain(layers: readonly ToolCaller[], bottom: Next): Next {
  let next = bottom;
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const layer = layers[index]!;
    const inner = next;
    next = (call) => layer(call, inner);
  }
  return next;
}

const passThrough: ToolCaller = function passThrough(call, next) {
  return next(call);
};

/** The caller that adds nothing: `(call, next) => next(call)`. */
export function defaultToolCaller(): ToolCaller {
  return passThrough;
}
