/** A JSON value as it crosses the model boundary. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object: the shape every tool's arguments must have. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A JSON Schema document (draft-07 or 2020-12). Kept loose on purpose: schemas arrive from users,
 * MCP servers and providers with vendor keywords we must carry through untouched.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** True for a non-null, non-array object: the only acceptable shape of tool arguments. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property lookup that never walks the prototype chain (model-supplied keys are untrusted). */
export function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}
