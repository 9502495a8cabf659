import { isCancellation } from '../cancellation.js';
import { completedResult } from '../dispatch/completed-result.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { nextCalledTwice } from '../dispatch/next-called-twice-error.js';
import {
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';

/**
 * Composes middleware into one caller. **The first listed is the outermost**: it sees the call
 * first and the result last (koa order: `a, b, c` runs `a → b → c → executor → c → b → a`).
 *
 * Every layer is treated alike. A layer that throws yields a `tool_middleware_exception` result,
 * and one that resolves to something that is not a result an `exception` result (category
 * `tool_middleware_exception`); both name that layer in `audit.layers`, and the layers outside it
 * still see and decorate them. A result missing fields a layer may read is completed
 * (`completedResult`). Cancellation is never trapped and always propagates. `next()` is
 * single-use: a layer's second call rejects with `NextCalledTwiceError` and never runs the inner
 * layers or the tool again. An empty list is a pass-through.
 *
 * @example
 * const caller = composeToolCallers([withAuditLog('local'), withConsent(ask), withRateLimit({ maxCalls: 100 })]);
 */
export function composeToolCallers(layers: readonly ToolCaller[]): ToolCaller {
  if (!Array.isArray(layers)) return passThrough;
  layers.forEach((layer, index) => {
    if (typeof layer !== 'function') {
      throw new InvalidOptionError(
        'layers',
        `composeToolCallers: layer ${index} must be a function (call, next) => result`,
      );
    }
  });
  if (layers.length === 0) return passThrough;
  const stack = [...layers];
  return function composedToolCaller(call, bottom) {
    /** The deepest layer entered so far: entering one again is a second `next()` from above it. */
    let entered = -1;
    function enter(index: number, envelope: ToolCallEnvelope): Promise<ToolCallResult> {
      if (index <= entered) return nextCalledTwice(nameOf(stack[index - 1]!));
      entered = index;
      if (index === stack.length) return bottom(envelope);
      const layer = stack[index]!;
      let returned: unknown;
      try {
        returned = layer(envelope, enter.bind(null, index + 1));
      } catch (error) {
        returned = Promise.reject(error);
      }
      // A layer written without `async` may hand back a plain result: take it as one.
      return Promise.resolve(returned).then(
        (value) => checked(layer, envelope, value),
        (error: unknown) => failed(layer, envelope, error),
      );
    }
    return enter(0, call);
  };
}

function nameOf(layer: ToolCaller): string {
  return layer.name || 'tool_caller';
}

/** What a layer resolved to: its result, completed, or the exception result of a broken one. */
function checked(layer: ToolCaller, call: ToolCallEnvelope, value: unknown): ToolCallResult {
  const violation = resultContractViolation(value, call);
  if (violation === null) return completedResult(value as ToolCallResult, call);
  const name = nameOf(layer);
  return exceptionResult(call, new Error(`${name} broke the middleware contract: ${violation}`), {
    status: 'exception',
    layer: name,
  });
}

/** What a layer's throw becomes: its `tool_middleware_exception` result; a cancellation rethrown. */
function failed(layer: ToolCaller, call: ToolCallEnvelope, error: unknown): ToolCallResult {
  if (isCancellation(error, call.signal)) throw error;
  return exceptionResult(call, error, { layer: nameOf(layer) });
}

const passThrough: ToolCaller = function passThrough(call, next) {
  return next(call);
};

/** The caller that adds nothing: `(call, next) => next(call)`. */
export function defaultToolCaller(): ToolCaller {
  return passThrough;
}
