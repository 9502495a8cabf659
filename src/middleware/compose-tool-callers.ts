import { isCancellation } from '../cancellation.js';
import { completedResult } from '../dispatch/completed-result.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { nextCalledTwice } from '../dispatch/next-called-twice-error.js';
import {
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from '../dispatch/result.js';
import {
  completesResults,
  markCompletesResults,
  type Next,
  type ToolCaller,
} from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import { markKeptLink, markSeen } from './unseen-results.js';

/**
 * Wraps one layer so that its misbehaviour becomes a result its outer layers still see, blaming
 * it by name: an exception, a second `next()` (rejected with `NextCalledTwiceError`: the rest of
 * the stack runs at most once), or a value that is not a result. An incomplete but valid result
 * is completed (`completedResult`) so the layers outside can read every field.
 */
function trapped(layer: ToolCaller): ToolCaller {
  const name = layer.name || 'tool_caller';
  return (call, next) => {
    let called = false;
    const once: Next = (inner) => {
      if (called) return nextCalledTwice(name);
      called = true;
      return next(inner);
    };
    let pending: Promise<ToolCallResult>;
    try {
      pending = layer(call, once);
    } catch (error) {
      if (isCancellation(error, call.signal)) return Promise.reject(error);
      return Promise.resolve(exceptionResult(call, error, { layer: name }));
    }
    // A layer written without `async` may hand back a plain result: take it as one, instead of
    // failing in `.then` and blaming the layer outside it.
    return Promise.resolve(pending).then(
      (value: unknown) => {
        // This layer may keep what it returns: no layer outside may add to it in place.
        markSeen(value);
        const violation = resultContractViolation(value, call);
        if (violation === null) return completedResult(value as ToolCallResult, call);
        return exceptionResult(
          call,
          new Error(`${name} broke the middleware contract: ${violation}`),
          {
            status: 'exception',
            layer: name,
          },
        );
      },
      (error: unknown) => {
        if (isCancellation(error, call.signal)) throw error;
        return exceptionResult(call, error, { layer: name });
      },
    );
  };
}

/**
 * The layers of this package whose contract is known: they call `next` at most once and never hand
 * it to other code, resolve to a complete result whenever `next` does (or short-circuit with one),
 * and trap their own failures (`layerFailure`: only a cancellation rejects). Between two layers,
 * such a layer needs no wrapper at all: its result needs no check, its `next` no single-use guard,
 * its failures no `.then` that would cost every call a promise and a microtask turn.
 */
const keepers = new WeakSet<ToolCaller>();

/** Marks a layer made by this package's factories as one that keeps the contract (see `keepers`). */
export function keepsContract<T extends ToolCaller>(layer: T): T {
  keepers.add(layer);
  return layer;
}

/**
 * Composes middleware into one caller. **The first listed is the outermost**: it sees the call
 * first and the result last (koa order: `a, b, c` runs `a → b → c → executor → c → b → a`).
 *
 * A layer that throws yields a `tool_middleware_exception` result, and one that resolves to
 * something that is not a result an `exception` result (category `tool_middleware_exception`);
 * both name that layer in `audit.layers`, and the layers outside it still see and decorate them
 * (an audit layer records them); cancellation is never trapped and always propagates.
 * `next()` is single-use: a layer's second call rejects with `NextCalledTwiceError` and never runs
 * the inner layers or the tool again. An empty list is a pass-through.
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
  // The chain depends only on `bottom`, which a dispatcher passes unchanged on every call: build
  // it once per distinct bottom instead of allocating a closure per layer per call.
  let chainBottom: Next | undefined;
  let chain: Next = (call) => Promise.reject(new Error(`no chain for ${call.callId}`));
  const composed = function composedToolCaller(
    call: ToolCallEnvelope,
    bottom: Next,
  ): Promise<ToolCallResult> {
    if (bottom !== chainBottom) {
      chain = buildChain(stack, bottom);
      chainBottom = bottom;
    }
    return chain(call);
  };
  // Kept layers outermost down to a trapped one (or to a bottom that completes): complete results.
  return keepers.has(stack[0]!) ? markCompletesResults(composed) : composed;
}

/**
 * The chain over `bottom`. A layer keeping the contract is called as it is; any other is trapped.
 * So is a kept innermost layer over a bottom not known to complete its results (whatever a user
 * passes): its result is then checked like a user layer's. A link to a kept layer is marked (see
 * `isOwnedBy`).
 */
function buildChain(layers: readonly ToolCaller[], bottom: Next): Next {
  let next = bottom;
  let completes = completesResults(bottom);
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const layer = layers[index]!;
    const kept = completes && keepers.has(layer);
    const call = kept ? layer : trapped(layer);
    const inner = next;
    next = (envelope) => call(envelope, inner);
    if (kept) markKeptLink(next);
    completes = true;
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
