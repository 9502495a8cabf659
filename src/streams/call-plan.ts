import type { ProposedCall } from '../dispatch/proposed-call.js';
import { isUnreadable, type ReadCall, readProposedCall } from '../dispatch/read-proposed-call.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import { type CallConstraint, constraintFor, FREE } from './call-constraints.js';
import type { StartGate } from './turn-options.js';

/**
 * What the turn engine learns about a call when it arrives, once, and carries to the dispatcher:
 * the call read into plain data, its tool, its lane constraint, and whether it waits for the gate.
 */
export interface CallPlan {
  /** The call as read once, at its arrival. */
  readonly read: ReadCall;
  /** Its tool, looked up once (null: none by that name, or the call could not be read). */
  readonly tool: AnyTool | null;
  readonly emitOrder: number;
  readonly constraint: CallConstraint;
  /** Waits for `release()` before it may start (a call the model may still take back). */
  readonly gated: boolean;
}

/** The plan of a call: its place in the turn, the turn's tools and its start gate while closed. */
export function planCall(
  raw: ProposedCall,
  {
    emitOrder,
    registry,
    gate,
  }: {
    readonly emitOrder: number;
    readonly registry: ToolRegistry;
    readonly gate: StartGate | null;
  },
): CallPlan {
  // Plain data from here on: whatever the model's call object does runs once, here.
  const read = readProposedCall(raw);
  if (isUnreadable(read)) {
    // It never runs: the dispatcher answers it without a lane and without waiting for the gate.
    return { read, tool: null, emitOrder, constraint: FREE, gated: false };
  }
  const tool = registry.resolve(read.name) ?? null;
  let gated = false;
  if (gate !== null) {
    // A gate (an eager policy) that throws holds the call until the release.
    try {
      gated = !gate.startsEarly(read, tool);
    } catch {
      gated = true;
    }
  }
  return { read, tool, emitOrder, constraint: constraintFor(tool ?? undefined, read), gated };
}
