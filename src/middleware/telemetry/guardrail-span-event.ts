import type { ToolCallResult } from '../../dispatch/result.js';

/** The name of the span event of a guardrail that tripped. */
const GUARDRAIL_TRIPPED_EVENT = 'switchyard.guardrail.tripped';

/** A span event of a guardrail that tripped (a `SpanEvent` of the call's span). */
export interface GuardrailSpanEvent {
  readonly name: typeof GUARDRAIL_TRIPPED_EVENT;
  readonly timeMs: number;
  readonly attributes: Readonly<Record<string, string>>;
}

/** What a guardrail did, by the status its layer entry records. */
const ACTIONS: Readonly<Record<string, string>> = {
  blocked: 'block',
  replaced: 'replace',
  halted: 'halt',
};

/**
 * The span events of the guardrails that tripped on a call, read from the `with_guardrails`
 * entries of its audit (the layer's own record, which its child span is made of too): the
 * guardrail's name, the stage (`input` before the tool, `output` after), the action and the
 * reason. At `timeMs`: the entry records no time of its own, and a guardrail that trips ends the
 * call's way through the layers.
 */
export function guardrailSpanEvents(result: ToolCallResult, timeMs: number): GuardrailSpanEvent[] {
  const layers = result.audit?.layers;
  if (layers === undefined) return [];
  const events: GuardrailSpanEvent[] = [];
  for (const layer of layers) {
    const action = layer.name === 'with_guardrails' ? ACTIONS[layer.status] : undefined;
    if (action === undefined) continue;
    const attributes: Record<string, string> = {
      'switchyard.guardrail.action': action,
    };
    if (typeof layer.guardrail === 'string')
      attributes['switchyard.guardrail.name'] = layer.guardrail;
    if (typeof layer.stage === 'string') attributes['switchyard.guardrail.stage'] = layer.stage;
    if (typeof layer.reason === 'string') attributes['switchyard.guardrail.reason'] = layer.reason;
    events.push({ name: GUARDRAIL_TRIPPED_EVENT, timeMs, attributes });
  }
  return events;
}
