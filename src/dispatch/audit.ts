/** One middleware layer's entry in `audit.layers`. */
export interface AuditLayer {
  readonly name: string;
  readonly status: string;
  readonly [key: string]: unknown;
}

/**
 * Free-form audit data middleware attaches to a result. Field names follow ACP / OTel / MCP where
 * they exist (`summary`, `kind`, `consent`, `scope`, `metadata`); `layers` lists each layer's entry.
 */
export interface AuditData {
  readonly layers?: readonly AuditLayer[];
  readonly summary?: string;
  readonly [key: string]: unknown;
}

/**
 * The audit merge rule: a shallow merge where the addition wins, except `layers`, which
 * concatenate. Outer layers merge after `next` returns, so the final `layers` list is ordered
 * innermost first.
 */
export function mergeAudit(existing: AuditData | undefined, addition: AuditData): AuditData {
  if (existing === undefined) return addition;
  const layers =
    addition.layers === undefined
      ? existing.layers
      : existing.layers === undefined
        ? addition.layers
        : [...existing.layers, ...addition.layers];
  // Object.assign, not spreads: this runs once per layer per call.
  const merged: Record<string, unknown> = Object.assign({}, existing, addition);
  if (layers !== undefined) merged.layers = layers;
  return merged as AuditData;
}
