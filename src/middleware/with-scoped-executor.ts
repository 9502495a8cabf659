import {
  type ExecutionPolicy,
  narrowExecutionPolicy,
  policyDenial,
} from '../dispatch/execution-policy.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError, ScopeViolationError } from '../errors.js';
import { checkOneOf, checkString, checkStringList, optionsObject } from '../option-checks.js';
import { isPlainObject } from '../tools/json.js';
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../tools/tool-spec.js';
import { type AuditRecorder, type LayerStage, Passage, stageLayer } from './layer-stage.js';

/** Options of `withScopedExecutor`. */
export interface ScopedExecutorOptions {
  /** Names the scope in `audit.scope`, layer entries and messages. Default `scoped`. */
  readonly stage?: string;
  /**
   * Canonical names of the tools this scope allows. Left out: any tool. An empty list allows
   * none (fail closed).
   */
  readonly allowedTools?: readonly string[];
  /** The highest side-effect level allowed (`none`, `read_only`, `workspace_write`, `process_exec`, `network`). */
  readonly sideEffectLevel?: SideEffectLevel;
  /** Capability → operations allowed, e.g. `{ filesystem: ['read'] }` (see `requiredCapabilities`). */
  readonly capabilities?: Readonly<Record<string, readonly string[]>>;
  /** `reject` (default): a `scope_violation` result. `raise`: throw a `ScopeViolationError`. */
  readonly onViolation?: 'reject' | 'raise';
}

const FACTORY = 'withScopedExecutor';
const LAYER = 'with_scoped_executor';

function readCapabilities(value: unknown): Record<string, readonly string[]> {
  if (!isPlainObject(value)) {
    throw new InvalidOptionError(
      'capabilities',
      `${FACTORY}: capabilities must be an object of operation lists`,
    );
  }
  const capabilities: Record<string, readonly string[]> = {};
  for (const [capability, operations] of Object.entries(value)) {
    capabilities[capability] = checkStringList(FACTORY, `capabilities.${capability}`, operations);
  }
  return capabilities;
}

/**
 * Narrows what calls may do for the rest of the stack. A call outside the scope (tool not allowed,
 * side-effect level above the ceiling, a capability not granted) is refused before anything below
 * runs: a `scope_violation` result, or a thrown `ScopeViolationError` with `onViolation: 'raise'`
 * (inside `composeToolCallers` that surfaces as a `tool_middleware_exception` result). A call inside
 * it continues under an execution policy intersected with any policy already active: a scope can
 * tighten, never widen, and the executor enforces it again (`permission_denied`), so a layer below
 * that swaps the tool cannot escape it.
 *
 * Records `audit.scope = { stage, allowedTools?, sideEffectLevel? }` and a layer entry
 * `{ name: 'with_scoped_executor', status: 'ok' | 'rejected', stage, reason? }`.
 *
 * @example
 * withScopedExecutor({ stage: 'research', allowedTools: ['search_files', 'read_file'] });
 */
export function withScopedExecutor(options?: ScopedExecutorOptions): ToolCaller {
  return stageLayer(scopedExecutorStage(options));
}

/** The stage of `withScopedExecutor`. */
export function scopedExecutorStage(options?: ScopedExecutorOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  const stage = checkString(FACTORY, 'stage', settings.stage ?? 'scoped', { nonEmpty: true });
  const onViolation = checkOneOf(FACTORY, 'onViolation', settings.onViolation ?? 'reject', [
    'reject',
    'raise',
  ]);
  const allowedTools =
    settings.allowedTools === undefined
      ? undefined
      : checkStringList(FACTORY, 'allowedTools', settings.allowedTools);
  const sideEffectLevel =
    settings.sideEffectLevel === undefined
      ? undefined
      : checkOneOf(FACTORY, 'sideEffectLevel', settings.sideEffectLevel, SIDE_EFFECT_LEVELS);
  const capabilities =
    settings.capabilities === undefined ? undefined : readCapabilities(settings.capabilities);
  const policy: ExecutionPolicy = {
    ...(allowedTools === undefined ? {} : { tools: new Set(allowedTools) }),
    ...(sideEffectLevel === undefined ? {} : { sideEffectLevel }),
    ...(capabilities === undefined ? {} : { capabilities }),
  };
  const scope = {
    stage,
    ...(allowedTools === undefined ? {} : { allowedTools }),
    ...(sideEffectLevel === undefined ? {} : { sideEffectLevel }),
  };
  /** The layer entry of an admitted call: the same frozen object every time. */
  const okEntry = Object.freeze({ name: LAYER, status: 'ok', stage });
  const admitted = {
    leave: (result: ToolCallResult, audit: AuditRecorder) =>
      audit.record(result, okEntry, { scope }),
  };

  return {
    name: LAYER,
    enter(call) {
      const denial = policyDenial(policy, {
        name: call.toolName,
        safety: call.annotations.safety,
        annotations: call.annotations,
      });
      if (denial === null) return new Passage(narrowExecutionPolicy(call, policy), admitted);
      const reason =
        denial.gate === 'tool_ceiling'
          ? `tool '${call.toolName}' not in stage '${stage}' allowlist`
          : `stage '${stage}': ${denial.reason}`;
      if (onViolation === 'raise') {
        throw new ScopeViolationError(reason, {
          stage,
          toolName: call.toolName,
          callId: call.callId,
        });
      }
      return shortCircuitResult(call, {
        status: 'scope_violation',
        error: reason,
        errorCategory: 'scope_violation',
        denial: { ...denial, reason },
        audit: { scope, layers: [{ name: LAYER, status: 'rejected', stage, reason }] },
      });
    },
  };
}
