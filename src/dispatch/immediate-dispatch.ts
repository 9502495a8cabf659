import type { AnyTool } from '../tools/tool-registry.js';
import type { TurnOptions } from './call-admission.js';
import type { ReadCall } from './read-proposed-call.js';
import type { ToolCallResult } from './result.js';

// Not the public contract: the turn engine's way into a dispatcher without a promise per call.

/** The synchronous-first entry of each dispatcher `createDispatcher` built (see `immediateDispatchOf`). */
const IMMEDIATE = new WeakMap<object, ImmediateDispatch>();

/**
 * Dispatches a call already read (`readProposedCall`) with `emitOrder`, to its result itself when
 * nothing on its way was asynchronous, else to a promise of it. `tool` is the call's tool as the
 * turn engine looked it up (null: no such tool), so admission does not look it up again.
 * Internal to the turn engine.
 */
export type ImmediateDispatch = (
  read: ReadCall,
  turnOptions: TurnOptions | undefined,
  emitOrder: number,
  tool?: AnyTool | null,
) => ToolCallResult | Promise<ToolCallResult>;

/** Records the immediate entry of a dispatcher `createDispatcher` built. */
export function registerImmediateDispatch(dispatcher: object, immediate: ImmediateDispatch): void {
  IMMEDIATE.set(dispatcher, immediate);
}

/** The immediate entry of a dispatcher `createDispatcher` built; undefined for any other. */
export function immediateDispatchOf(dispatcher: object): ImmediateDispatch | undefined {
  return IMMEDIATE.get(dispatcher);
}
