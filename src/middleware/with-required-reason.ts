import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
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
import { attachLayer } from './attach-audit.js';
import { layerFailure } from './layer-failure.js';
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
/** The layer entry of an accepted call: the same frozen object every time, nothing to build. */
const OK_ENTRY = Object.freeze({ name: LAYER, status: 'ok' });

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

  function forward(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    if (!strip) return next(call);
    // The layer owns its field: handing on rewritten arguments makes the executor check them
    // against the handler's own schema, so a reason the model-visible schema requires but the
    // model left out (fill_blank) does not fail the call. Valid calls without the field need no copy.
    if (!Object.hasOwn(call.toolArgs, field) && call.validation.valid) return next(call);
    return next({ ...call, toolArgs: without(call.toolArgs, field) });
  }

  /** `{ summary: reason }` under the configured key, built without a computed-key literal. */
  function reasonAudit(reason: string): Record<string, string> {
    const audit: Record<string, string> = {};
    audit[auditKey] = reason;
    return audit;
  }

  async function with_required_reason(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    try {
      if (isCertainlyRefused(call)) return next(call);
      const raw = Object.hasOwn(call.toolArgs, field) ? call.toolArgs[field] : undefined;
      const reason = typeof raw === 'string' ? raw.trim() : '';
      if (codePointsAtLeast(reason, minLength)) {
        const result = await forward(call, next);
        return attachLayer(result, OK_ENTRY, reasonAudit(reason));
      }
      if (onMissing === 'fill_blank') {
        const result = await forward(call, next);
        return attachLayer(
          result,
          { name: LAYER, status: 'fill_blank' },
          reasonAudit(NO_REASON_GIVEN),
        );
      }
      return shortCircuitResult(call, {
        status: 'error',
        errorCategory: 'schema_violation',
        error: `${FACTORY}: tool \`${call.toolName}\` was invoked without a \`${field}\` (required by middleware)`,
        audit: { layers: [{ name: LAYER, status: 'rejected' }] },
      });
    } catch (error) {
      return layerFailure(call, error, LAYER);
    }
  }

  return { schemaTransform, caller: with_required_reason };
}
