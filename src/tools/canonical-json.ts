import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted recursively and no whitespace, so equal values always give equal
 * text (and equal hashes). `undefined` members are dropped as JSON.stringify drops them.
 * Throws a TypeError on cycles, like JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return sortKeys((value as { toJSON: () => unknown }).toJSON(), seen);
  }
  if (seen.has(value)) throw new TypeError('canonicalJson: value contains a cycle');
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

/** Hex SHA-256 of a string (UTF-8). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hex SHA-256 of the canonical JSON of a value. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
