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

/** A copy of the result with one layer entry appended (plus any other audit keys). */
export function attachLayer(
  result: ToolCallResult,
  layer: AuditLayer,
  extra: Omit<AuditData, 'layers'> = {},
): ToolCallResult {
  return attachAudit(result, { ...extra, layers: [layer] });
}
