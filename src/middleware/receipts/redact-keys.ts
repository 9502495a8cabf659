import { isPlainObject } from '../../tools/json.js';

/** Removes `keys` at any depth (copying; a `__proto__` key stays data). */
export function redactKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (keys.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => redactKeys(item, keys));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    if (!keys.has(key)) copy[key] = redactKeys(value[key], keys);
  }
  return copy;
}
