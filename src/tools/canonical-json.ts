import { hash } from 'node:crypto';
import { InvalidArgumentError } from '../errors.js';

/**
 * JSON with object keys sorted recursively and no whitespace, so equal values always give equal
 * text (and equal hashes). `undefined` members are dropped as JSON.stringify drops them.
 * Throws an `InvalidArgumentError` on cycles (where JSON.stringify throws a TypeError).
 */
export function canonicalJson(value: unknown): string {
  // Most values hashed per call (arguments parsed from JSON, small results) are already in key
  // order: their plain JSON text is the canonical text, with no sorted copy to build.
  if (inKeyOrder(value, 0)) return JSON.stringify(value);
  return JSON.stringify(sortKeys(value, new Set()));
}

/** Nesting the key-order check follows before leaving a value to `sortKeys` (which finds cycles). */
const MAX_CHECKED_DEPTH = 32;

/**
 * True when JSON.stringify(value) already gives the canonical text: only primitives, arrays and
 * plain objects whose own keys come in sorted order, and nothing with a `toJSON`. Anything else
 * (class instances, boxed primitives, dates) takes the sorting path.
 */
function inKeyOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
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

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return sortKeys((value as { toJSON: () => unknown }).toJSON(), seen);
  }
  if (seen.has(value))
    throw new InvalidArgumentError('value', 'canonicalJson: value contains a cycle');
  seen.add(value);
  let sorted: unknown;
  if (Array.isArray(value)) {
    sorted = value.map((item) => sortKeys(item, seen));
  } else {
    // A null-prototype target keeps a `__proto__` key as plain data.
    const target: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      target[key] = sortKeys((value as Record<string, unknown>)[key], seen);
    }
    sorted = target;
  }
  seen.delete(value);
  return sorted;
}

/** Hex SHA-256 of a string (UTF-8). One-shot: no Hash object per call. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Hex SHA-256 of the canonical JSON of a value. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
