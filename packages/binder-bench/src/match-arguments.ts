import type { JsonObject, JsonValue } from 'switchyard';
import { isPlainObject } from 'switchyard/tools';
import type { ExpectedCall } from './bench-case.js';

/** The verdict on one bound call: correct, or the first argument that is wrong and why. */
export type ArgumentMatch =
  | { readonly correct: true }
  | { readonly correct: false; readonly reason: string };

type Pattern = { readonly [argument: string]: readonly JsonValue[] };

const CORRECT: ArgumentMatch = Object.freeze({ correct: true });
const IGNORED = /[ ,./\-_*^]/g;

/** BFCL's string comparison: case-insensitive, without spaces and `, . / - _ * ^`. */
export function normalizeAnswerString(value: string): string {
  return value.replace(IGNORED, '').toLowerCase().replaceAll("'", '"');
}

/** An object in a list of acceptable values is a pattern when each of its values is a list. */
function isPattern(value: JsonValue): value is { [key: string]: JsonValue[] } {
  return isPlainObject(value) && Object.values(value).every(Array.isArray);
}

function valueMatches(actual: unknown, candidate: JsonValue): boolean {
  if (typeof candidate === 'string') {
    return (
      typeof actual === 'string' &&
      normalizeAnswerString(actual) === normalizeAnswerString(candidate)
    );
  }
  // A JavaScript number has no int/float split, so an integer is accepted where the schema says number.
  if (candidate === null || typeof candidate !== 'object') return actual === candidate;
  if (Array.isArray(candidate)) {
    return (
      Array.isArray(actual) &&
      actual.length === candidate.length &&
      candidate.every((element, index) => valueMatches(actual[index], element))
    );
  }
  if (!isPlainObject(actual)) return false;
  if (isPattern(candidate)) return matchPattern(actual, candidate, '').correct;
  const keys = Object.keys(candidate);
  return (
    Object.keys(actual).length === keys.length &&
    keys.every((key) => Object.hasOwn(actual, key) && valueMatches(actual[key], candidate[key]!))
  );
}

function matchPattern(
  actual: Record<string, unknown>,
  pattern: Pattern,
  path: string,
): ArgumentMatch {
  for (const key of Object.keys(actual)) {
    if (!Object.hasOwn(pattern, key)) {
      return { correct: false, reason: `unexpected argument ${path}${key}` };
    }
  }
  for (const [key, acceptable] of Object.entries(pattern)) {
    if (!Object.hasOwn(actual, key)) {
      if (acceptable.includes('')) continue;
      return { correct: false, reason: `missing argument ${path}${key}` };
    }
    if (!acceptable.some((candidate) => valueMatches(actual[key], candidate))) {
      const shown = JSON.stringify(actual[key])?.slice(0, 80) ?? 'undefined';
      return { correct: false, reason: `${path}${key}: ${shown} is not an acceptable value` };
    }
  }
  return CORRECT;
}

/**
 * BFCL's rule for one call's arguments: every argument given is an expected one, every expected
 * argument is given unless `""` is among its acceptable values (optional), and each value is among
 * its acceptable values. Strings compare case-insensitively without spaces and `, . / - _ * ^`, in
 * lists and objects too; lists compare element by element, in order; an acceptable object whose
 * values are lists is a pattern matched by the same rule (nested arguments). Returns the verdict with
 * the first failure's reason.
 *
 * @example
 * matchArguments({ base: 10, height: 5 }, { base: [10], height: [5], unit: ['units', ''] }); // correct
 */
export function matchArguments(
  args: JsonObject,
  expected: ExpectedCall['arguments'],
): ArgumentMatch {
  return matchPattern(args, expected, '');
}

function oracleValue(candidate: JsonValue): JsonValue {
  if (Array.isArray(candidate)) return candidate.map(oracleValue);
  if (candidate !== null && isPattern(candidate)) return oracleObject(candidate);
  return candidate;
}

function oracleObject(pattern: Pattern): JsonObject {
  const args: JsonObject = {};
  for (const [key, acceptable] of Object.entries(pattern)) {
    const first = acceptable[0];
    // `""` first means the argument may be left out: the ceiling leaves it out.
    if (first === undefined || first === '') continue;
    args[key] = oracleValue(first);
  }
  return args;
}

/** The strong planner's call: each argument's first acceptable value, optional ones (`""` first) left out. */
export function oracleArguments(expected: ExpectedCall['arguments']): JsonObject {
  return oracleObject(expected);
}
