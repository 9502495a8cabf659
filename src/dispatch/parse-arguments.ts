import { isPlainObject, type JsonObject } from '../tools/json.js';

/**
 * The arguments object, or (a string) why the arguments were refused, for the model. No wrapper
 * object: arguments are read on every call.
 */
export type ParsedArguments = JsonObject | string;

export interface ParseArgumentsOptions {
  /** Whether missing or empty arguments may stand for `{}` (only for tools without side effects). */
  readonly allowEmpty: boolean;
  /** Longest accepted JSON text, in characters. */
  readonly maxLength: number;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Reads model-supplied arguments. JSON text is parsed (a `__proto__` key stays plain data);
 * anything that is not a JSON object is refused with a message for the model. Missing or empty
 * arguments count as `{}` only when `allowEmpty`: a tool with side effects never runs on arguments
 * that were lost or cut off.
 */
export function parseArguments(raw: unknown, options: ParseArgumentsOptions): ParsedArguments {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    return options.allowEmpty
      ? {}
      : 'no arguments were received; this tool has side effects, so send a JSON object explicitly (`{}` if it takes none)';
  }
  if (typeof raw === 'string') {
    if (raw.length > options.maxLength) {
      return `arguments are ${raw.length} characters long; the limit is ${options.maxLength}`;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      return `arguments are not valid JSON (${(error as Error).message}); send one complete JSON object`;
    }
    return isPlainObject(parsed)
      ? (parsed as JsonObject)
      : `arguments must be a JSON object; got ${describe(parsed)}`;
  }
  return isPlainObject(raw)
    ? (raw as JsonObject)
    : `arguments must be a JSON object; got ${describe(raw)}`;
}
