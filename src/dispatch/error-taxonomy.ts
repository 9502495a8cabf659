/**
 * The error taxonomy: wire categories (what events and clients see), the finer internal categories
 * (what classification of thrown errors yields), and the mappings between them.
 */

/** Wire classification of a failed tool call (snake_case on the wire). */
export type ToolCallErrorCategory =
  | 'schema_validation'
  | 'tool_error'
  | 'mcp_server_error'
  | 'host_bridge_error'
  | 'permission_denied'
  | 'rejected_loop'
  | 'parse_aborted'
  | 'timeout'
  | 'network'
  | 'resource_busy'
  | 'cancelled'
  | 'abandoned_at_loop_exit'
  | 'unknown';

/** Every `ToolCallErrorCategory`: the wire categories a failed call can carry. */
export const TOOL_CALL_ERROR_CATEGORIES: readonly ToolCallErrorCategory[] = [
  'schema_validation',
  'tool_error',
  'mcp_server_error',
  'host_bridge_error',
  'permission_denied',
  'rejected_loop',
  'parse_aborted',
  'timeout',
  'network',
  'resource_busy',
  'cancelled',
  'abandoned_at_loop_exit',
  'unknown',
];

/**
 * True only for `schema_validation`: the model slipped on its arguments and should call again with
 * the correction. Every other category means pivot or ask, not retry the same call.
 */
export function isRecoverable(category: ToolCallErrorCategory): boolean {
  return category === 'schema_validation';
}

/** Fine-grained categories that classification of thrown errors yields. */
export type InternalErrorCategory =
  | 'timeout'
  | 'rate_limit'
  | 'overloaded'
  | 'server_error'
  | 'transient_network'
  | 'resource_busy'
  | 'schema_validation'
  | 'schema_stream_aborted'
  | 'tool_error'
  | 'tool_rejected'
  | 'cancelled'
  | 'auth'
  | 'egress_blocked'
  | 'channel_closed'
  | 'not_found'
  | 'circuit_open'
  | 'budget_exceeded'
  | 'internal'
  | 'environment'
  | 'generic';

const TRANSIENT = new Set<InternalErrorCategory>([
  'timeout',
  'rate_limit',
  'overloaded',
  'server_error',
  'transient_network',
]);

/** True for failures worth retrying after a pause (on tools whose policy and safety allow it). */
export function isTransient(category: InternalErrorCategory): boolean {
  return TRANSIENT.has(category);
}

/** Maps an internal category onto the wire enum. */
export function fromInternal(category: InternalErrorCategory): ToolCallErrorCategory {
  switch (category) {
    case 'timeout':
      return 'timeout';
    case 'rate_limit':
    case 'overloaded':
    case 'server_error':
    case 'transient_network':
      return 'network';
    case 'resource_busy':
      return 'resource_busy';
    case 'schema_validation':
    case 'schema_stream_aborted':
      return 'schema_validation';
    case 'tool_error':
      return 'tool_error';
    case 'tool_rejected':
      return 'permission_denied';
    case 'cancelled':
      return 'cancelled';
    case 'auth':
    case 'egress_blocked':
    case 'channel_closed':
    case 'not_found':
    case 'circuit_open':
    case 'budget_exceeded':
    case 'internal':
    case 'environment':
    case 'generic':
      return 'host_bridge_error';
    default: {
      const unreachable: never = category;
      return unreachable;
    }
  }
}

const WIRE = new Set<string>(TOOL_CALL_ERROR_CATEGORIES);

/** How the free-form category words of results and middleware normalize onto the wire enum. */
const LIFECYCLE_ALIASES: Readonly<Record<string, ToolCallErrorCategory>> = {
  intra_turn_failure_fanout_collapsed: 'rejected_loop',
  intra_turn_resource_fail_fast: 'rejected_loop',
  tool_batch_deferred: 'rejected_loop',
  tool_batch_blocked: 'rejected_loop',
  tool_rejected: 'permission_denied',
  consent_denied: 'permission_denied',
  egress_blocked: 'permission_denied',
  scope_violation: 'permission_denied',
  policy_blocked: 'permission_denied',
  tool_not_found: 'schema_validation',
  schema_violation: 'schema_validation',
  schema_stream_aborted: 'schema_validation',
  validator_failure: 'schema_validation',
  repair_failed: 'schema_validation',
  invalid_arguments: 'schema_validation',
  rate_limit: 'network',
  overloaded: 'network',
  server_error: 'network',
  transient_network: 'network',
  // A budget set by policy ran out: come back later, do not hammer.
  rate_limited: 'resource_busy',
  tool_middleware_exception: 'tool_error',
  tool_parallel_dispatch_exception: 'tool_error',
  executor_error: 'tool_error',
  exception: 'tool_error',
  generic: 'tool_error',
  auth: 'host_bridge_error',
  channel_closed: 'host_bridge_error',
  not_found: 'host_bridge_error',
  circuit_open: 'host_bridge_error',
  budget_exceeded: 'host_bridge_error',
  // Whether the call took effect is not known: no wire word says more than that.
  in_doubt: 'unknown',
  approval_required: 'permission_denied',
  abandoned: 'abandoned_at_loop_exit',
  // A guardrail refused the call or withheld its result (withGuardrails).
  guardrail_tripped: 'permission_denied',
  guardrail_halted: 'permission_denied',
};

/**
 * Normalizes the category word on a result (`consent_denied`, `schema_violation`, `rate_limited`,
 * …) to the wire enum used by lifecycle events. Wire names pass through; unknown words become
 * `unknown`; no word stays `null`.
 */
export function toWireCategory(word: string | null | undefined): ToolCallErrorCategory | null {
  if (word === null || word === undefined || word === '') return null;
  if (WIRE.has(word)) return word as ToolCallErrorCategory;
  return Object.hasOwn(LIFECYCLE_ALIASES, word)
    ? (LIFECYCLE_ALIASES[word] ?? 'unknown')
    : 'unknown';
}
