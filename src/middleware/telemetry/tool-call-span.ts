import type { ToolCallEnvelope } from '../../dispatch/envelope.js';
import { toWireCategory } from '../../dispatch/error-taxonomy.js';
import type { ModelTokens } from '../../dispatch/model-token-share.js';
import { renderValue } from '../../dispatch/render-output.js';
import type { ToolCallResult } from '../../dispatch/result.js';
import type { ToolUsage } from '../../tools/tool-cost.js';
import { guardrailSpanEvents } from './guardrail-span-event.js';

/** Attribute values as OpenTelemetry accepts them. */
export type SpanAttributeValue = string | number | boolean;

/** A child span per audit layer of the call. */
export interface LayerSpan {
  readonly name: string;
  readonly status: 'ok' | 'error';
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
}

/**
 * Something that happened during a call: `tool_call.dispatched`, `tool_call.result_returned`, and
 * `switchyard.guardrail.tripped` (with the guardrail's name, stage, action and reason) when a
 * guardrail blocked, replaced or halted the call.
 */
export interface SpanEvent {
  readonly name: string;
  readonly timeMs: number;
  readonly attributes?: Readonly<Record<string, SpanAttributeValue>>;
}

/**
 * One tool call, shaped by the OpenTelemetry GenAI conventions: `execute_tool {tool}`, kind
 * INTERNAL, `gen_ai.*` attributes, `error.type` on failure, arguments and result only when asked.
 */
export interface ToolCallSpan {
  readonly name: string;
  readonly kind: 'INTERNAL';
  /** The session id, or `tool_call:<id>` without one. */
  readonly traceId: string;
  /** The call id. */
  readonly spanId: string;
  readonly startTimeMs: number;
  readonly endTimeMs: number;
  readonly durationMs: number;
  readonly status: 'ok' | 'error';
  readonly statusMessage?: string;
  readonly attributes: Readonly<Record<string, SpanAttributeValue>>;
  readonly events: readonly SpanEvent[];
  readonly children: readonly LayerSpan[];
}

/** What a call's span records beyond the conventions' required attributes. */
export interface SpanOptions {
  /** Record `gen_ai.tool.call.arguments` (sensitive; off by default). */
  readonly recordArguments?: boolean;
  /** Record `gen_ai.tool.call.result` of calls that succeeded (sensitive; off by default). */
  readonly recordResult?: boolean;
  /** Merged into every span's attributes, last. */
  readonly extraAttributes?: Readonly<Record<string, SpanAttributeValue>>;
}

/** A value as a JSON string attribute, whatever it holds (`renderValue`'s stand-ins; never throws). */
function json(value: unknown): string {
  return value === undefined ? 'null' : renderValue(value);
}

/** Layer statuses that make a layer's child span an error. */
const FAILED_STATUSES: ReadonlySet<string> = new Set([
  'exception',
  'sink_error',
  'rejected',
  'denied',
  'blocked',
  'timeout',
]);

/**
 * Attribute names by audit key (`count` → `switchyard.layer.count`), child span names by layer name
 * and span names by tool name: the same few strings on every call, built once instead of once per
 * attribute per call.
 */
const attributeNames = new Map<string, string>();
const layerSpanNames = new Map<string, string>();
const spanNames = new Map<string, string>();
/** Past this many names, new ones are built per call instead of kept (keys can come from anywhere). */
const MAX_KEPT_NAMES = 1024;

function keptName(names: Map<string, string>, key: string, prefix: string): string {
  let name = names.get(key);
  if (name === undefined) {
    name = `${prefix}${key}`;
    if (names.size < MAX_KEPT_NAMES) names.set(key, name);
  }
  return name;
}

function layerSpans(result: ToolCallResult): LayerSpan[] {
  const layers = result.audit?.layers;
  if (layers === undefined) return [];
  const spans: LayerSpan[] = [];
  for (const layer of layers) {
    const attributes: Record<string, SpanAttributeValue> = {};
    for (const key of Object.keys(layer)) {
      if (key === 'name') continue;
      const value = layer[key];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        attributes[keptName(attributeNames, key, 'switchyard.layer.')] = value;
    }
    spans.push({
      name: keptName(layerSpanNames, layer.name, 'tool_layer '),
      status: FAILED_STATUSES.has(layer.status) ? 'error' : 'ok',
      attributes,
    });
  }
  return spans;
}

/** Builds the span of a finished call. Times are wall-clock milliseconds since the epoch. */
export function toolCallSpan(
  call: ToolCallEnvelope,
  result: ToolCallResult,
  times: { readonly startTimeMs: number; readonly endTimeMs: number },
  options: SpanOptions = {},
): ToolCallSpan {
  const remote =
    result.executor === 'mcp_server' ||
    result.executor === 'host_bridge' ||
    result.executor === 'provider_native';
  const attributes: Record<string, SpanAttributeValue> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': result.toolName || call.toolName,
    'gen_ai.tool.call.id': call.callId,
    'gen_ai.tool.type': remote ? 'extension' : 'function',
    'switchyard.status': result.status,
    'switchyard.emit_order': call.turn.emitOrder,
    'switchyard.iteration': call.turn.iteration,
  };
  if (call.description !== '') attributes['gen_ai.tool.description'] = call.description;
  if (result.executor !== null) attributes['switchyard.executor'] = result.executor;
  if (call.turn.sessionId !== '') attributes['switchyard.session_id'] = call.turn.sessionId;
  if (!result.ok) attributes['error.type'] = toWireCategory(result.errorCategory) ?? '_OTHER';
  usageAttributes(attributes, result.usage, call.modelTokens);
  if (options.recordArguments) attributes['gen_ai.tool.call.arguments'] = json(result.arguments);
  // "The result returned by the tool call (if any and if execution was successful)".
  if (options.recordResult && result.ok && result.result !== undefined) {
    attributes['gen_ai.tool.call.result'] = json(result.result);
  }
  Object.assign(attributes, options.extraAttributes);
  const failed = !result.ok;
  const name = keptName(spanNames, attributes['gen_ai.tool.name'] as string, 'execute_tool ');
  const traceId = call.turn.sessionId === '' ? `tool_call:${call.callId}` : call.turn.sessionId;
  const durationMs = Math.max(0, times.endTimeMs - times.startTimeMs);
  const events: SpanEvent[] = [
    { name: 'tool_call.dispatched', timeMs: times.startTimeMs },
    ...guardrailSpanEvents(result, times.endTimeMs),
    { name: 'tool_call.result_returned', timeMs: times.endTimeMs },
  ];
  // Members added in order rather than through a conditional spread, which builds the span
  // slowly; `statusMessage` keeps its place after `status`.
  const span: { -readonly [K in keyof ToolCallSpan]: ToolCallSpan[K] } = {
    name,
    kind: 'INTERNAL',
    traceId,
    spanId: call.callId,
    startTimeMs: times.startTimeMs,
    endTimeMs: times.endTimeMs,
    durationMs,
    status: failed ? 'error' : 'ok',
  } as ToolCallSpan;
  if (failed && result.error !== null) span.statusMessage = result.error;
  span.attributes = attributes;
  span.events = events;
  span.children = layerSpans(result);
  return span;
}

/**
 * A call's cost as span attributes, added to `attributes`: its share of its model turn's tokens
 * under the OTel GenAI names (`gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`), when it
 * carried one as it was dispatched; what its tool spent under Switchyard's own names, since the
 * conventions name nothing a tool spends.
 */
function usageAttributes(
  attributes: Record<string, SpanAttributeValue>,
  usage: ToolUsage | undefined,
  modelTokens: ModelTokens | undefined,
): void {
  if (modelTokens !== undefined) {
    attributes['gen_ai.usage.input_tokens'] = modelTokens.inputTokens;
    attributes['gen_ai.usage.output_tokens'] = modelTokens.outputTokens;
  }
  if (usage === undefined) return;
  if (usage.toolCostUsd !== undefined) attributes['switchyard.tool.cost_usd'] = usage.toolCostUsd;
  if (usage.units !== undefined) attributes['switchyard.tool.units'] = usage.units;
  if (usage.unit !== undefined) attributes['switchyard.tool.unit'] = usage.unit;
  if (usage.undeclaredSpend) attributes['switchyard.tool.undeclared_spend'] = true;
}
