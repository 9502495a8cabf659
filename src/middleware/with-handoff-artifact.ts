import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, errorMessage, HandoffArtifactError } from '../errors.js';
import {
  checkBoolean,
  checkOptionalFunction,
  checkString,
  checkStringList,
  optionsObject,
} from '../option-checks.js';
import { isPlainObject } from '../tools/json.js';
import { attachLayer } from './attach-audit.js';
import { type HandoffRecord, normalizeHandoff } from './handoff-record.js';

/** Options of `withHandoffArtifact`. */
export interface HandoffArtifactOptions {
  /** Called once per emitted handoff (persist it, start the target). Its errors are recorded, not thrown. */
  readonly sink?: (record: HandoffRecord, call: ToolCallEnvelope) => void | Promise<void>;
  /** Finds the payload yourself; return undefined to fall back to `keys`. Its errors are ignored. */
  readonly detect?: (call: ToolCallEnvelope, result: ToolCallResult) => unknown;
  /** Result keys to look in after the defaults `__handoff` and `handoff`. */
  readonly keys?: readonly string[];
  /** The source persona when the payload names none. */
  readonly source?: string;
  /** Throw a `HandoffArtifactError` on a malformed payload instead of recording it. Default false. */
  readonly strict?: boolean;
  /** Wall clock for `createdAt`, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

const FACTORY = 'withHandoffArtifact';
const LAYER = 'with_handoff_artifact';
const DEFAULT_KEYS = ['__handoff', 'handoff'];

/** The payload under the first of `keys` in a result object, or in a JSON object string. */
function payloadIn(value: unknown, keys: readonly string[]): unknown {
  let object = value;
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!isPlainObject(object)) return undefined;
  for (const key of keys) {
    if (Object.hasOwn(object, key) && object[key] !== undefined && object[key] !== null) {
      return object[key];
    }
  }
  return undefined;
}

/**
 * Turns handoff payloads in successful results into typed records. The payload comes from
 * `detect(call, result)`, else from `result.result` (an object, or a JSON string of one) under
 * `__handoff`, `handoff` or one of `keys`. It is normalized into a `HandoffRecord` (see
 * `normalizeHandoff`), put on `audit.handoff` with `audit.kind = 'handoff'`, and handed to `sink`.
 * A payload that is not an object is ignored; one that does not normalize is recorded as
 * `invalid` (both throw with `strict`, which inside `composeToolCallers` becomes a
 * `tool_middleware_exception` result).
 *
 * Layer entry: `{ name: 'with_handoff_artifact', status: 'emitted', handoffId, sinkError? }`, or
 * `{ status: 'invalid', error }`.
 *
 * @example
 * withHandoffArtifact({ source: 'planner', sink: (record) => handoffs.push(record) });
 */
export function withHandoffArtifact(options?: HandoffArtifactOptions): ToolCaller {
  const settings = optionsObject(FACTORY, options);
  const sink = checkOptionalFunction(FACTORY, 'sink', settings.sink);
  const detect = checkOptionalFunction(FACTORY, 'detect', settings.detect);
  const keys = [...DEFAULT_KEYS, ...checkStringList(FACTORY, 'keys', settings.keys ?? [])];
  const source =
    settings.source === undefined
      ? undefined
      : checkString(FACTORY, 'source', settings.source, { nonEmpty: true });
  const strict = checkBoolean(FACTORY, 'strict', settings.strict ?? false);
  const now = checkOptionalFunction(FACTORY, 'now', settings.now) ?? Date.now;

  async function locate(call: ToolCallEnvelope, result: ToolCallResult): Promise<unknown> {
    if (detect !== undefined) {
      try {
        const found = await detect(call, result);
        if (found !== undefined && found !== null) return found;
      } catch {
        // A detector that fails leaves the default lookup in charge.
      }
    }
    return payloadIn(result.result, keys);
  }

  async function with_handoff_artifact(
    call: ToolCallEnvelope,
    next: Next,
  ): Promise<ToolCallResult> {
    const result = await next(call);
    if (result.ok !== true) return result;
    const payload = await locate(call, result);
    if (payload === undefined) return result;
    if (!isPlainObject(payload)) {
      if (strict)
        throw new HandoffArtifactError('the handoff payload must be an object', call.toolName);
      return result;
    }
    let record: HandoffRecord;
    try {
      record = normalizeHandoff(payload, {
        call,
        source,
        createdAt: new Date(now()).toISOString(),
      });
    } catch (error) {
      if (strict) throw error;
      return attachLayer(result, { name: LAYER, status: 'invalid', error: errorMessage(error) });
    }
    let sinkError: string | undefined;
    if (sink !== undefined) {
      try {
        await sink(record, call);
      } catch (error) {
        if (CancelledError.isInstance(error)) throw error;
        sinkError = errorMessage(error);
      }
    }
    return attachLayer(
      result,
      {
        name: LAYER,
        status: 'emitted',
        handoffId: record.handoffId,
        ...(sinkError === undefined ? {} : { sinkError }),
      },
      { handoff: record, kind: 'handoff' },
    );
  }

  return with_handoff_artifact;
}
