import { isCancellation } from '../cancellation.js';
import { completedResult } from '../dispatch/completed-result.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { nextCalledTwice } from '../dispatch/next-called-twice-error.js';
import {
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
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
 * it to other code, and resolve to a complete result whenever `next` does (or short-circuit with
 * one). Between two layers, such a layer needs only its failures trapped.
 */
const keepers = new WeakSet<ToolCaller>();

/** Marks a layer made by this package's factories as one that keeps the contract (see `keepers`). */
export function keepsContract<T extends ToolCaller>(layer: T): T {
  keepers.add(layer);
  return layer;
}

/**
 * A layer that keeps the contract, with a layer below it: its `next` resolves to a complete result
 * (the layer below is trapped, or kept by induction), so its own result needs no check, and its
 * `next` no single-use guard. What it throws or rejects with is still trapped and blamed on it,
 * as `trapped` does. Saves each such layer two closures and the checks per call.
 */
function kept(layer: ToolCaller): ToolCaller {
  const name = layer.name || 'tool_caller';
  function blame(call: ToolCallEnvelope, error: unknown): ToolCallResult {
    if (isCancellation(error, call.signal)) throw error;
    return exceptionResult(call, error, { layer: name });
  }
  return (call, next) => {
    let pending: Promise<ToolCallResult>;
    try {
      pending = layer(call, next);
    } catch (error) {
      try {
        return Promise.resolve(blame(call, error));
      } catch (cancellation) {
        return Promise.reject(cancellation);
      }
    }
    return pending.then(undefined, (error: unknown) => blame(call, error));
  };
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
  // The innermost layer is always trapped: its `next` is whatever bottom the caller passes.
  const keptAt = layers.map((layer, index) => index < layers.length - 1 && keepers.has(layer));
  const wrapped = layers.map((layer, index) => (keptAt[index] ? kept(layer) : trapped(layer)));
  // The chain depends only on `bottom`, which a dispatcher passes unchanged on every call: build
  // it once per distinct bottom instead of allocating a closure per layer per call.
  let chainBottom: Next | undefined;
  let chain: Next = (call) => Promise.reject(new Error(`no chain for ${call.callId}`));
  return function composedToolCaller(
    call: ToolCallEnvelope,
    bottom: Next,
  ): Promise<ToolCallResult> {
    if (bottom !== chainBottom) {
      chain = buildChain(wrapped, keptAt, bottom);
      chainBottom = bottom;
    }
    return chain(call);
  };
}

/** The chain over `bottom`; a link to a kept layer is marked (see `isOwnedBy`). */
function buildChain(layers: readonly ToolCaller[], keptAt: readonly boolean[], bottom: Next): Next {
  let next = bottom;
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const layer = layers[index]!;
    const inner = next;
    next = (call) => layer(call, inner);
    if (keptAt[index]) markKeptLink(next);
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
