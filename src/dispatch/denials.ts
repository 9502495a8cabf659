/** Which gate refused a tool call, so hosts need not parse reason strings. */
export type DenialGate =
  | 'tool_ceiling'
  | 'malformed_tool_wrapper'
  | 'capability_ceiling'
  | 'side_effect_ceiling'
  | 'arg_constraint'
  | 'dynamic_permission'
  | 'approval_policy'
  | 'approval_unavailable'
  | 'host_rejected'
  | 'hook_deny'
  | 'deterministic_precheck'
  | 'unknown';

/** A tool call refused at the dispatch boundary. Carried on the denied result as `denial`. */
export interface ToolDenial {
  readonly gate: DenialGate;
  /** The capability or operation exceeded, e.g. `process.exec`. */
  readonly capability?: string;
  /** Workspace paths the refused call declared. */
  readonly deniedPaths: readonly string[];
  /** Whether re-issuing the call with corrected arguments can succeed. */
  readonly retryable: boolean;
  /** Model-facing explanation. */
  readonly reason: string;
}

/** Optional facts of a denial. */
export interface DenialDetails {
  readonly capability?: string;
  readonly deniedPaths?: readonly string[];
}

function denial(
  gate: DenialGate,
  reason: string,
  retryable: boolean,
  details: DenialDetails,
): ToolDenial {
  const base = { gate, reason, retryable, deniedPaths: details.deniedPaths ?? [] };
  return details.capability === undefined ? base : { ...base, capability: details.capability };
}

/** A denial that no retry of the same call can overcome (ceilings, policies, approvals). */
export function terminalDenial(
  gate: DenialGate,
  reason: string,
  details: DenialDetails = {},
): ToolDenial {
  return denial(gate, reason, false, details);
}

/** A denial of this argument only: the model may retry with a corrected value. */
export function retryableDenial(
  gate: DenialGate,
  reason: string,
  details: DenialDetails = {},
): ToolDenial {
  return denial(gate, reason, true, details);
}
