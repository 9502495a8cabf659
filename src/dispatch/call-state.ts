import type { JsonObject } from '../tools/json.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { CallJournal } from './call-journal.js';
import type { CallValidation, ToolCallEnvelope } from './envelope.js';
import type { ExecutionPolicy } from './execution-policy-type.js';

/**
 * What the dispatcher decided about a call when it arrived, carried to the executor under a symbol
 * key. Spreading the envelope (`{ ...call, toolArgs }`) keeps it; an envelope built from scratch
 * loses it and is refused, so no layer can forge a fresh, unchecked call.
 */
export const CALL_STATE = Symbol('switchyard.callState');

export interface CallState {
  /** The tool resolved at arrival (undefined when the name was unknown or not advertised). */
  readonly tool: AnyTool | undefined;
  /** The arguments checked at arrival: unchanged arguments need no second check. */
  readonly args: JsonObject;
  readonly validation: CallValidation;
  /** The arguments were not a JSON object: the call never runs, whatever a layer does. */
  readonly unparseable: boolean;
  /** The proposed call itself could not be read: refused whatever name a layer gives it. */
  readonly malformed?: boolean;
  /** Tools the model was shown this turn; null means every tool that is not deferred. */
  readonly advertised: ReadonlySet<string> | null;
  /** What the call may do, narrowed by scoping layers (`narrowExecutionPolicy`); none when unset. */
  readonly policy?: ExecutionPolicy;
  /** The turn's own `context` for the handler, in place of the dispatcher's; none when unset. */
  readonly context?: unknown;
  /** The turn's journal: it answers or records the call where it reaches its executor. */
  readonly journal?: CallJournal;
  /**
   * Set on the call's first state once the call reaches the executor stage: a second arrival is a
   * second `next()`. A narrowed copy reads and sets its `origin`'s.
   */
  started: boolean;
  /** The state this one was copied from, when a layer narrowed it (the first state has none). */
  readonly origin?: CallState;
}

export type StatefulEnvelope = ToolCallEnvelope & { readonly [CALL_STATE]?: CallState };

export function callStateOf(call: ToolCallEnvelope): CallState | undefined {
  return (call as StatefulEnvelope)[CALL_STATE];
}

/**
 * Marks the call as having reached the executor stage; false when it already had (a layer called
 * `next()` twice). Every state derived from one call shares the first state's mark.
 */
export function markStarted(state: CallState): boolean {
  const first = state.origin ?? state;
  if (first.started) return false;
  first.started = true;
  return true;
}

export function isAdvertised(tool: AnyTool, advertised: ReadonlySet<string> | null): boolean {
  return advertised === null ? !tool.deferLoading : advertised.has(tool.name);
}
