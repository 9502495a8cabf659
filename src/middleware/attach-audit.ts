import { type AuditData, type AuditLayer, mergeAudit } from '../dispatch/audit.js';
import { type ToolCallResult, withAudit } from '../dispatch/result.js';
import type { Next } from '../dispatch/tool-caller.js';
import { isOwnedBy, markUnseen } from './unseen-results.js';

/**
 * A copy of the result with audit data merged in by the audit rule (`mergeAudit`: shallow, the
 * addition wins, `layers` concatenate). The result itself is never mutated: it may be shared
 * (an idempotency cache hands the same result to several calls).
 */
export function attachAudit(result: ToolCallResult, addition: AuditData): ToolCallResult {
  return withAudit(result, mergeAudit(result.audit, addition));
}

/**
 * A copy of the result with one layer entry appended (plus any other audit keys), merged by the
 * same rule as `attachAudit`. Every layer does this on every call, so it builds the merged audit
 * directly: `{ ...extra, layers }` would define `layers` through a slow runtime call (a property
 * after a spread in an object literal), then copy everything a second time to merge it.
 */
export function attachLayer(
  result: ToolCallResult,
  layer: AuditLayer,
  extra?: Omit<AuditData, 'layers'>,
): ToolCallResult {
  const existing = result.audit;
  const audit: Record<string, unknown> = Object.assign({}, existing, extra);
  const layers = existing?.layers;
  audit.layers = layers === undefined ? [layer] : [...layers, layer];
  const copy = withAudit(result, audit as AuditData);
  markUnseen(copy);
  return copy;
}

/**
 * `attachLayer` for a layer that got `result` from `next`. When `next` is a composed chain's link
 * to a bundled layer and `result` is a copy `attachLayer` made there that nothing else has seen
 * (`isOwnedBy`), nobody else holds it, its audit or its `layers` list: the entry is added to them
 * in place, by the same rule, instead of copying all three again. In a governance stack, seven of
 * the eight layers that record an entry take this path.
 */
export function attachLayerAfter(
  next: Next,
  result: ToolCallResult,
  layer: AuditLayer,
  extra?: Omit<AuditData, 'layers'>,
): ToolCallResult {
  if (!isOwnedBy(next, result)) return attachLayer(result, layer, extra);
  const audit = result.audit as Record<string, unknown>;
  if (extra !== undefined) Object.assign(audit, extra);
  (audit.layers as AuditLayer[]).push(layer);
  return result;
}
