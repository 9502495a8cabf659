import type { AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import {
  checkBoolean,
  checkNonNegative,
  checkOneOf,
  checkString,
  optionsObject,
} from '../option-checks.js';
import type { JsonObject } from '../tools/json.js';
import type { AnyTool, AnyToolSpec } from '../tools/tool-registry.js';
import { type AuditRecorder, type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { isCertainlyRefused } from './refused-call.js';
import { toolInjectParam } from './tool-inject-param.js';

/** Options of `withRequiredReason`. */
export interface RequiredReasonOptions {
  /** The argument that carries the reason. Default `reason`. */
  readonly field?: string;
  /** Its description in the model-visible schema. Default "Brief one-line reason for invoking this tool". */
  readonly description?: string;
  /** Remove the field before the tool runs. Default true. */
  readonly strip?: boolean;
  /** The audit key the reason is recorded under. Default `summary`. */
  readonly auditKey?: string;
  /** Shortest accepted reason after trimming, in code points. Default 1. */
  readonly minLength?: number;
  /** What to do when the reason is missing or too short. Default `reject`. */
  readonly onMissing?: 'reject' | 'fill_blank';
  /** List the field in the schema's `required` array. Default true. */
  readonly schemaRequired?: boolean;
}

/** The paired halves of `withRequiredReason`. */
export interface RequiredReason {
  /** Schema-time: adds the field to every tool (`toolsUseMiddleware(registry, schemaTransform)`). */
  readonly schemaTransform: (tool: AnyTool) => AnyToolSpec;
  /** Execution-time: checks, records and (by default) strips the field. */
  readonly caller: ToolCaller;
}

const FACTORY = 'withRequiredReason';
const LAYER = 'with_required_reason';
/** The layer entries of a call let through: the same frozen objects every time, nothing to build. */
const OK_ENTRY = Object.freeze({ name: LAYER, status: 'ok' });
const FILL_BLANK_ENTRY = Object.freeze({ name: LAYER, status: 'fill_blank' });

/** True when `text` has at least `count` code points, without spreading it into an array. */
function codePointsAtLeast(text: string, count: number): boolean {
  // Each code point takes one or two UTF-16 units.
  if (text.length < count) return false;
  if (text.length >= count * 2) return true;
  let seen = 0;
  for (const _ of text) {
    seen += 1;
    if (seen >= count) return true;
  }
  return seen >= count;
}

/** The arguments without `field`; a `__proto__` key stays data, as in the parsed arguments. */
function without(args: JsonObject, field: string): JsonObject {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (key === field) continue;
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: args[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else copy[key] = args[key];
  }
  return copy as JsonObject;
}

/** Recorded as the reason of a call let through by `onMissing: 'fill_blank'`. */
export const NO_REASON_GIVEN = '(no reason given)';

/**
 * Makes the model say why it calls each tool. The schema transform adds a string parameter
 * (`reason` by default) to every tool; the caller reads it, trims it, records it on
 * `audit[auditKey]` (`audit.summary` by default), strips it before the tool runs, and rejects a call
 * without one (`schema_violation`), or lets it through recorded as "(no reason given)" with
 * `onMissing: 'fill_blank'`.
 *
 * Stripping and the schema transform work together: the executor checks arguments a layer rewrote
 * against the tool's own `handlerSchema`, which has no reason field. Calls naming an unknown tool or
 * carrying unreadable arguments pass untouched (the executor refuses them with a better message).
 *
 * Layer entry: `{ name: 'with_required_reason', status: 'ok' | 'fill_blank' | 'rejected' }`.
 *
 * @example
 * const reason = withRequiredReason();
 * const dispatcher = createDispatcher({
 *   registry: toolsUseMiddleware(registry, reason.schemaTransform),
 *   caller: composeToolCallers([reason.caller]),
 * });
 */
export function withRequiredReason(options?: RequiredReasonOptions): RequiredReason {
  const { schemaTransform, stage } = requiredReason(options);
  return { schemaTransform, caller: stageLayer(stage) };
}

/** The two halves of `withRequiredReason`, its execution-time half as a stage. */
export function requiredReason(options?: RequiredReasonOptions): {
  readonly schemaTransform: (tool: AnyTool) => AnyToolSpec;
  readonly stage: LayerStage;
} {
  const settings = optionsObject(FACTORY, options);
  const field = checkString(FACTORY, 'field', settings.field ?? 'reason', { nonEmpty: true });
  const description = checkString(
    FACTORY,
    'description',
    settings.description ?? 'Brief one-line reason for invoking this tool',
  );
  const strip = checkBoolean(FACTORY, 'strip', settings.strip ?? true);
  const auditKey = checkString(FACTORY, 'auditKey', settings.auditKey ?? 'summary', {
    nonEmpty: true,
  });
  if (auditKey === 'layers') {
    throw new InvalidOptionError('auditKey', `${FACTORY}: auditKey must not be "layers"`);
  }
  const minLength = checkNonNegative(FACTORY, 'minLength', settings.minLength ?? 1, {
    integer: true,
  });
  const onMissing = checkOneOf(FACTORY, 'onMissing', settings.onMissing ?? 'reject', [
    'reject',
    'fill_blank',
  ]);
  const schemaRequired = checkBoolean(FACTORY, 'schemaRequired', settings.schemaRequired ?? true);

  function schemaTransform(tool: AnyTool): AnyToolSpec {
    return toolInjectParam(
      tool,
      field,
      { type: 'string', description },
      { required: schemaRequired },
    );
  }

  /** The call handed on: the layer owns its field, and strips it unless told not to. */
  function forwarded(call: ToolCallEnvelope): ToolCallEnvelope {
    if (!strip) return call;
    // Handing on rewritten arguments makes the executor check them against the handler's own
    // schema, so a reason the model-visible schema requires but the model left out (fill_blank)
    // does not fail the call. Valid calls without the field need no copy.
    if (!Object.hasOwn(call.toolArgs, field) && call.validation.valid) return call;
    return { ...call, toolArgs: without(call.toolArgs, field) };
  }

  /** Records the reason under the configured key, built without a computed-key literal. */
  function recorded(entry: AuditLayer, reason: string) {
    const extra: Record<string, string> = {};
    extra[auditKey] = reason;
    return {
      leave: (result: ToolCallResult, audit: AuditRecorder) => audit.record(result, entry, extra),
    };
  }

  const stage: LayerStage = {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return new Passage(call);
      const raw = Object.hasOwn(call.toolArgs, field) ? call.toolArgs[field] : undefined;
      const reason = typeof raw === 'string' ? raw.trim() : '';
      if (codePointsAtLeast(reason, minLength)) {
        return new Passage(forwarded(call), recorded(OK_ENTRY, reason));
      }
      if (onMissing === 'fill_blank') {
        return new Passage(forwarded(call), recorded(FILL_BLANK_ENTRY, NO_REASON_GIVEN));
      }
      return shortCircuitResult(call, {
        status: 'error',
        errorCategory: 'schema_violation',
        error: `${FACTORY}: tool \`${call.toolName}\` was invoked without a \`${field}\` (required by middleware)`,
        audit: { layers: [{ name: LAYER, status: 'rejected' }] },
      });
    },
  };
  return { schemaTransform, stage };
}
