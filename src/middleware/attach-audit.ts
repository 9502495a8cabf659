import { type AuditData, type AuditLayer, mergeAudit } from '../dispatch/audit.js';
import { type ToolCallResult, withAudit } from '../dispatch/result.js';

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
  return withAudit(result, audit as AuditData);
}
