import { InvalidOptionError } from './errors.js';
import { isPlainObject } from './tools/json.js';

/**
 * Checks for the options of the factories (middleware, model adapters). Each throws an
 * `InvalidOptionError` naming the option (`factory: option must be …; got …`) so a bad stack fails
 * at construction, never on the first call.
 */

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

function fail(factory: string, option: string, expected: string, value: unknown): never {
  throw new InvalidOptionError(
    option,
    `${factory}: ${option} must be ${expected}; got ${describe(value)}`,
  );
}

/** The options object itself: undefined becomes `{}`, anything but a plain object throws. */
export function optionsObject<T extends object>(factory: string, options: T | undefined): T {
  if (options === undefined) return {} as T;
  if (!isPlainObject(options)) fail(factory, 'options', 'an object', options);
  return options;
}

/** A function; anything else throws. */
export function checkFunction<T>(factory: string, option: string, value: T): T {
  if (typeof value !== 'function') fail(factory, option, 'a function', value);
  return value;
}

/** Undefined, or a function. */
export function checkOptionalFunction<T>(factory: string, option: string, value: T): T {
  return value === undefined ? value : checkFunction(factory, option, value);
}

/** `true` or `false`. */
export function checkBoolean(factory: string, option: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(factory, option, 'a boolean', value);
  return value;
}

/** A string; with `nonEmpty`, one with more than whitespace. */
export function checkString(
  factory: string,
  option: string,
  value: unknown,
  { nonEmpty = false }: { nonEmpty?: boolean } = {},
): string {
  if (typeof value !== 'string' || (nonEmpty && value.trim() === '')) {
    fail(factory, option, nonEmpty ? 'a non-empty string' : 'a string', value);
  }
  return value;
}

/** A finite number ≥ 0; `integer` also demands a whole number. */
export function checkNonNegative(
  factory: string,
  option: string,
  value: unknown,
  { integer = false }: { integer?: boolean } = {},
): number {
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    (!integer || Number.isInteger(value));
  if (!ok) fail(factory, option, integer ? 'a non-negative integer' : 'a finite number ≥ 0', value);
  return value as number;
}

/** A finite number > 0; `integer` also demands a whole number. */
export function checkPositive(
  factory: string,
  option: string,
  value: unknown,
  { integer = false }: { integer?: boolean } = {},
): number {
  const number = checkNonNegative(factory, option, value, { integer });
  if (number === 0) fail(factory, option, integer ? 'an integer ≥ 1' : 'a number > 0', value);
  return number;
}

/** A plain object, such as extra request-body fields. */
export function checkObject(
  factory: string,
  option: string,
  value: unknown,
): Readonly<Record<string, unknown>> {
  if (!isPlainObject(value)) fail(factory, option, 'an object', value);
  return value;
}

/** A time limit in ms: a number > 0, or `Infinity` for none (returned as undefined). */
export function checkTimeLimit(
  factory: string,
  option: string,
  value: unknown,
): number | undefined {
  if (value === Number.POSITIVE_INFINITY) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    fail(factory, option, 'a number of milliseconds > 0, or Infinity for no limit', value);
  }
  return value;
}

/** One of the `allowed` words; the error lists them. */
export function checkOneOf<T extends string>(
  factory: string,
  option: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (!allowed.includes(value as T)) {
    fail(factory, option, allowed.map((word) => `\`${word}\``).join(' or '), value);
  }
  return value as T;
}

/** An array of strings, copied. */
export function checkStringList(factory: string, option: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    fail(factory, option, 'an array of strings', value);
  }
  return [...value];
}

/** A `{ name: number }` map read into a Map, so model-supplied names never hit the prototype. */
export function checkNumberMap(
  factory: string,
  option: string,
  value: unknown,
  { integer = false }: { integer?: boolean } = {},
): Map<string, number> {
  if (!isPlainObject(value)) fail(factory, option, 'an object of numbers', value);
  const map = new Map<string, number>();
  for (const [key, entry] of Object.entries(value)) {
    map.set(key, checkNonNegative(factory, `${option}.${key}`, entry, { integer }));
  }
  return map;
}
