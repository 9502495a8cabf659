import { isPlainObject } from '../tools/json.js';
import { sideEffectRank } from '../tools/tool-safety.js';
import type { ResolvedSafety } from '../tools/tool-spec.js';
import { CALL_STATE, type CallState, callStateOf, type StatefulEnvelope } from './call-state.js';
import { type ToolDenial, terminalDenial } from './denials.js';
import type { ToolCallEnvelope } from './envelope.js';
import type { ExecutionPolicy } from './execution-policy-type.js';
import { shortCircuitResult, type ToolCallResult } from './result.js';

export type { ExecutionPolicy };

/** What a policy is checked against: a tool, or what an envelope tells of it. */
export interface PolicySubject {
  readonly name: string;
  /** Unknown for a call whose tool is unknown: side-effect and derived capability checks skip it. */
  readonly safety?: ResolvedSafety;
  /** May declare `capabilities: { <capability>: [<operation>, …] }`. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** The policy that allows what both allow: a scope can only tighten, never widen. */
export function intersectPolicies(outer: ExecutionPolicy, inner: ExecutionPolicy): ExecutionPolicy {
  const tools =
    outer.tools === undefined || inner.tools === undefined
      ? (outer.tools ?? inner.tools)
      : new Set([...outer.tools].filter((name) => inner.tools?.has(name)));
  const level =
    outer.sideEffectLevel === undefined || inner.sideEffectLevel === undefined
      ? (outer.sideEffectLevel ?? inner.sideEffectLevel)
      : sideEffectRank(outer.sideEffectLevel) <= sideEffectRank(inner.sideEffectLevel)
        ? outer.sideEffectLevel
        : inner.sideEffectLevel;
  return {
    ...(tools === undefined ? {} : { tools }),
    ...(level === undefined ? {} : { sideEffectLevel: level }),
    ...capabilitiesOf(outer.capabilities, inner.capabilities),
  };
}

function capabilitiesOf(
  outer: ExecutionPolicy['capabilities'],
  inner: ExecutionPolicy['capabilities'],
): Pick<ExecutionPolicy, 'capabilities'> {
  if (outer === undefined || inner === undefined) {
    const either = outer ?? inner;
    return either === undefined ? {} : { capabilities: either };
  }
  const capabilities: Record<string, readonly string[]> = {};
  for (const [capability, operations] of Object.entries(outer)) {
    if (!Object.hasOwn(inner, capability)) continue;
    const allowed = new Set(inner[capability]);
    capabilities[capability] = operations.filter((operation) => allowed.has(operation));
  }
  return { capabilities };
}

/**
 * The `capability.operation` pairs a tool needs: derived from its safety flags (`filesystem.read`
 * or `filesystem.write`, `process.exec`, `network.request`, `spend.charge`) plus any it declares
 * in `annotations.capabilities`.
 */
export function requiredCapabilities(subject: PolicySubject): string[] {
  const needed = new Set<string>();
  const safety = subject.safety;
  if (safety !== undefined) {
    if (safety.filesystem) needed.add(safety.readOnly ? 'filesystem.read' : 'filesystem.write');
    if (safety.shell) needed.add('process.exec');
    if (safety.network) needed.add('network.request');
    if (safety.spend) needed.add('spend.charge');
  }
  const declared = subject.annotations?.capabilities;
  if (isPlainObject(declared)) {
    for (const [capability, operations] of Object.entries(declared)) {
      if (!Array.isArray(operations)) continue;
      for (const operation of operations) needed.add(`${capability}.${String(operation)}`);
    }
  }
  return [...needed];
}

/** Why the policy refuses this tool, or null when it may run. */
export function policyDenial(policy: ExecutionPolicy, subject: PolicySubject): ToolDenial | null {
  const name = () => JSON.stringify(subject.name);
  if (policy.tools !== undefined && !policy.tools.has(subject.name)) {
    return terminalDenial('tool_ceiling', `tool ${name()} is not allowed by the execution policy`);
  }
  const level = subject.safety?.sideEffectLevel;
  const ceiling = policy.sideEffectLevel;
  if (
    level !== undefined &&
    ceiling !== undefined &&
    sideEffectRank(level) > sideEffectRank(ceiling)
  ) {
    return terminalDenial(
      'side_effect_ceiling',
      `tool ${name()} has side-effect level ${level}, above the ceiling ${ceiling} of the execution policy`,
    );
  }
  const allowed = policy.capabilities;
  if (allowed === undefined) return null;
  for (const needed of requiredCapabilities(subject)) {
    const dot = needed.indexOf('.');
    const capability = needed.slice(0, dot);
    const operation = needed.slice(dot + 1);
    if (!Object.hasOwn(allowed, capability) || !allowed[capability]?.includes(operation)) {
      return terminalDenial(
        'capability_ceiling',
        `tool ${name()} needs ${needed}, which the execution policy does not allow`,
        { capability: needed },
      );
    }
  }
  return null;
}

/**
 * A copy of the envelope whose call may do only what its current policy and `policy` both allow.
 * Layers below see the narrowed policy; the executor refuses tools outside it. An envelope not
 * derived from a dispatched call is returned as is (the executor refuses it anyway).
 */
export function narrowExecutionPolicy<T extends ToolCallEnvelope>(
  call: T,
  policy: ExecutionPolicy,
): T {
  const state = callStateOf(call);
  if (state === undefined) return call;
  const narrowed = state.policy === undefined ? policy : intersectPolicies(state.policy, policy);
  // Scoping layers do this on every call. `{ ...state, policy }` costs ~1 µs on Node 20: a
  // property a spread copy does not have yet is added through a slow runtime call. A copy made by
  // Object.assign gains properties at ordinary speed; the envelope's copy only overwrites one.
  const narrowedState: CallState = Object.assign({}, state, {
    policy: narrowed,
    origin: state.origin ?? state,
  });
  const copy = { ...call } as { [CALL_STATE]?: CallState };
  copy[CALL_STATE] = narrowedState;
  return copy as StatefulEnvelope as T;
}

/**
 * @deprecated Renamed `narrowExecutionPolicy` (`with…` names are kept for middleware layers);
 * this alias goes in the next minor version.
 */
export const withExecutionPolicy = narrowExecutionPolicy;

/** The `permission_denied` result of a call the active policy refuses. */
export function policyDeniedResult(call: ToolCallEnvelope, denial: ToolDenial): ToolCallResult {
  return shortCircuitResult(call, {
    status: 'policy_blocked',
    error: denial.reason,
    errorCategory: 'permission_denied',
    observation: `[denied: ${call.toolName}]\n${denial.reason}`,
    denial,
  });
}
