import type { SideEffectLevel } from '../tools/tool-spec.js';

// The policy's shape lives apart from its checks so that the call state, which carries a policy,
// and the checks, which read the call state, do not import each other.

/**
 * What a call may do while it runs. Every field narrows; a field left out does not restrict.
 * The executor enforces the policy a call carries, whatever the layers between did.
 */
export interface ExecutionPolicy {
  /** Canonical names of the tools that may run. An empty set allows no tool. */
  readonly tools?: ReadonlySet<string>;
  /** The highest side-effect level a tool may have (`none` < `read_only` < … < `network`). */
  readonly sideEffectLevel?: SideEffectLevel;
  /**
   * Capability → operations allowed (`{ filesystem: ['read'] }`). A capability a tool needs that is
   * missing here is refused. See `requiredCapabilities` for what a tool needs.
   */
  readonly capabilities?: Readonly<Record<string, readonly string[]>>;
}
