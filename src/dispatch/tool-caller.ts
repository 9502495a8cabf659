import type { ToolCallEnvelope } from './envelope.js';
import type { ToolCallResult } from './result.js';

/** Hands a call to the next layer inward (ultimately the executor). */
export type Next = (call: ToolCallEnvelope) => Promise<ToolCallResult>;

/**
 * An execution-time middleware layer. It may observe the call and result, rewrite the arguments
 * (`next({ ...call, toolArgs })`), short-circuit by returning a result without calling `next`,
 * and attach `audit` data (merged with `mergeAudit`).
 */
export type ToolCaller = (call: ToolCallEnvelope, next: Next) => Promise<ToolCallResult>;

/**
 * Functions known to resolve only to complete results (or reject with a cancellation): the
 * dispatcher's bottom, and a composed stack whose outermost layer keeps the contract. Above one, a
 * layer keeping the contract needs no trap (see `composeToolCallers`), and the dispatcher does not
 * check a composed stack's results again.
 */
const completing = new WeakSet<Next | ToolCaller>();

/** Marks `fn` as resolving only to complete results (see `completesResults`). */
export function markCompletesResults<T extends Next | ToolCaller>(fn: T): T {
  completing.add(fn);
  return fn;
}

/** True for a function marked by `markCompletesResults`. */
export function completesResults(fn: Next | ToolCaller): boolean {
  return completing.has(fn);
}
