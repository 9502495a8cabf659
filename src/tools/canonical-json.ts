import { hash } from 'node:crypto';
import { type CanonicalVersion, writeJson } from './write-json.js';

export type { CanonicalVersion } from './write-json.js';

/**
 * The canonical JSON text of a value: RFC 8785 (the JSON Canonicalization Scheme) by default, so
 * any implementation of it (in any language) gives the same text, and the same hash, for the same
 * JSON value. Object keys are sorted by UTF-16 code units, there is no whitespace, and numbers and
 * strings are written as JSON.stringify writes them (which is how RFC 8785 writes them).
 * Beyond JSON, as JSON.stringify does: `toJSON` is followed, `undefined`, functions and symbols
 * are dropped from objects (`null` in arrays), and NaN and ±Infinity are `null`. Any depth of
 * nesting works.
 *
 * `version`: `2` (default) is RFC 8785; `1` is the form Switchyard used before, kept for what was
 * keyed or hashed with it (receipt logs of schema version 1, journal keys), which writes keys
 * that look like array indexes first, in numeric order.
 *
 * @throws InvalidArgumentError on a cycle or a BigInt; a `toJSON` or getter that throws, its error.
 */
export function canonicalJson(value: unknown, version: CanonicalVersion = 2): string {
  // Most values hashed per call (arguments parsed from JSON, small results) are already in key
  // order: their plain JSON text is the canonical text of either version, with nothing to sort.
  if (inKeyOrder(value, 0)) return JSON.stringify(value);
  return writeJson(value, { canonical: version });
}

/** Nesting the key-order check follows before leaving a value to the writer (which finds cycles). */
const MAX_CHECKED_DEPTH = 32;

/**
 * True when JSON.stringify(value) already gives the canonical text: only primitives, arrays and
 * plain objects whose own keys come in sorted order, and nothing with a `toJSON`. Anything else
 * (class instances, boxed primitives, dates, BigInts) takes the writer's path.
 */
function inKeyOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'bigint';
  if (depth > MAX_CHECKED_DEPTH) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!inKeyOrder(value[index], depth + 1)) return false;
    }
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    // `<` on strings compares UTF-16 code units, as Array#sort does.
    if (index > 0 && !(keys[index - 1]! < key)) return false;
    if (!inKeyOrder((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** Hex SHA-256 of a string (UTF-8). One-shot: no Hash object per call. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * Hex SHA-256 of the canonical JSON of a value (RFC 8785 unless `version` is 1; see
 * `canonicalJson`, whose errors it throws).
 */
export function canonicalHash(value: unknown, version: CanonicalVersion = 2): string {
  return sha256Hex(canonicalJson(value, version));
}
