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

/** A denial that no retry of the same call can overcome (ceilings, policies, approvals). */
export function terminalDenial(
  gate: DenialGate,
  reason: string,
  details: { capability?: string; deniedPaths?: readonly string[] } = {},
): ToolDenial {
  return {
    gate,
    reason,
    retryable: false,
    deniedPaths: details.deniedPaths ?? [],
    ...pick(details),
  };
}

/** A denial of this argument only: the model may retry with a corrected value. */
export function retryableDenial(
  gate: DenialGate,
  reason: string,
  details: { capability?: string; deniedPaths?: readonly string[] } = {},
): ToolDenial {
  return {
    gate,
    reason,
    retryable: true,
    deniedPaths: details.deniedPaths ?? [],
    ...pick(details),
  };
}

function pick(details: { capability?: string }): { capability?: string } {
  return details.capability === undefined ? {} : { capability: details.capability };
}
