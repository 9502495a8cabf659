import { callStateOf } from '../dispatch/call-state.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { narrowExecutionPolicy } from '../dispatch/execution-policy.js';
import { Passage } from './layer-stage.js';

/**
 * True when the executor will refuse the call whatever the layers below do: its tool is unknown
 * (or not advertised this turn), or its arguments were not a JSON object. A call that merely
 * violates its schema is *not* certainly refused: a layer below may repair it (the required-reason
 * layer strips its field, a binder fills arguments), so gates must still treat it as a real call.
 */
export function isCertainlyRefused(call: ToolCallEnvelope): boolean {
  if (call.validation.valid) return false;
  return call.validation.status === 'tool_not_found' || callStateOf(call)?.unparseable === true;
}

const NOTHING_MAY_RUN = { tools: new Set<string>() };

/**
 * A certainly refused call handed on without gating it (no prompt, no budget spent), pinned to an
 * execution policy that allows no tool: should a layer below rename it to a real tool, the
 * executor still refuses it instead of running an ungated call.
 */
export function refusedPassage(call: ToolCallEnvelope): Passage {
  return new Passage(narrowExecutionPolicy(call, NOTHING_MAY_RUN));
}
