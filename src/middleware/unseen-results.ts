import type { ToolCallResult } from '../dispatch/result.js';
import type { Next } from '../dispatch/tool-caller.js';

/**
 * Results `attachLayer` built that no code but the bundled layers has seen since: a user layer
 * that handed one on has seen it (it may keep it), and `composeToolCallers` takes it off here.
 */
const unseen = new WeakSet<ToolCallResult>();

/**
 * Links of composed chains that call a layer keeping the contract (`keepsContract`) with no
 * user code between: what such a `next` resolves to went from that layer straight to its caller.
 */
const keptLinks = new WeakSet<Next>();

export function markUnseen(result: ToolCallResult): void {
  unseen.add(result);
}

/** A layer outside the bundled ones handed `result` on: it may have kept it. */
export function markSeen(result: unknown): void {
  if (typeof result === 'object' && result !== null) unseen.delete(result as ToolCallResult);
}

export function markKeptLink(next: Next): void {
  keptLinks.add(next);
}

/**
 * True when `result`, resolved by `next`, was built by `attachLayer` in the layer just below and
 * seen by nothing else since: the caller of `next` may add to its audit in place.
 */
export function isOwnedBy(next: Next, result: ToolCallResult): boolean {
  return keptLinks.has(next) && unseen.has(result);
}
