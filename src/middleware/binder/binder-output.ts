import { isPlainObject, type JsonObject } from '../../tools/json.js';

/** The arguments read from a binder response, or why there are none. */
export type BinderOutput =
  | { readonly ok: true; readonly args: JsonObject }
  | { readonly ok: false; readonly reason: string };

function typeWord(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Reads the bound arguments out of what a binder returned: `data` when it is an object, else
 * `text` parsed as JSON, which must be an object. Anything else is a `schema_error` reason.
 */
export function readBinderOutput(response: unknown): BinderOutput {
  if (!isPlainObject(response)) {
    return { ok: false, reason: 'binder returned an unexpected response shape' };
  }
  if (isPlainObject(response.data)) return { ok: true, args: response.data as JsonObject };
  if (typeof response.text !== 'string') {
    return { ok: false, reason: 'binder returned an unexpected response shape' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    return { ok: false, reason: 'binder response is not valid JSON' };
  }
  if (!isPlainObject(parsed)) {
    return {
      ok: false,
      reason: `binder response parsed as ${typeWord(parsed)}; expected an object`,
    };
  }
  return { ok: true, args: parsed as JsonObject };
}
