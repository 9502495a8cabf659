import type { ToolCallResult } from '../dispatch/result.js';
import type { Next } from '../dispatch/tool-caller.js';

/**
 * The last result `attachLayer` built, as long as no code but the bundled layers has seen it: a
 * user layer that hands it on has (it may keep it), and `composeToolCallers` then clears it. One
 * slot rather than a weak set of them: a weak set costs an insertion and GC work per call, and a
 * stack's layers build and pass on one result at a time (calls in flight together take turns, and
 * then copy as they did before).
 */
let unseen: ToolCallResult | undefined;

/**
 * Links of composed chains that call a layer keeping the contract (`keepsContract`) with no
 * user code between: what such a `next` resolves to went from that layer straight to its caller.
 */
const keptLinks = new WeakSet<Next>();

export function markUnseen(result: ToolCallResult): void {
  unseen = result;
}

/** A layer outside the bundled ones handed `result` on: it may have kept it. */
export function markSeen(result: unknown): void {
  if (result === unseen) unseen = undefined;
}

export function markKeptLink(next: Next): void {
  keptLinks.add(next);
}

/**
 * True when `result`, resolved by `next`, was built by `attachLayer` in the layer just below and
 * seen by nothing else since: the caller of `next` may add to its audit in place.
 */
export function isOwnedBy(next: Next, result: ToolCallResult): boolean {
  return result === unseen && keptLinks.has(next);
}
