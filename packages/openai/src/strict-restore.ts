import { isPlainObject } from 'switchyard/tools';

/**
 * Where a strict conversion turned optional fields into nullable ones, mirroring the schema:
 * only the branches that lead to such a field are kept.
 */
export type RestorePlan =
  | {
      readonly kind: 'object';
      /** Every property of the object: strict output carries them all, which picks an anyOf branch. */
      readonly keys: readonly string[];
      /** Optional fields made nullable: `null` there means the field was left out. */
      readonly absentWhenNull: ReadonlySet<string>;
      readonly children: ReadonlyMap<string, RestorePlan>;
    }
  | { readonly kind: 'array'; readonly items: RestorePlan }
  | { readonly kind: 'anyOf'; readonly branches: readonly RestorePlan[] };

/**
 * `value` with each `null` the plan marks removed. The input is never changed: a changed object
 * or array is copied, an unchanged one returned as it is.
 */
export function restoreAbsent(value: unknown, plan: RestorePlan): unknown {
  switch (plan.kind) {
    case 'object':
      return isPlainObject(value) ? restoreObject(value, plan) : value;
    case 'array': {
      if (!Array.isArray(value)) return value;
      const items = value.map((item) => restoreAbsent(item, plan.items));
      return items.every((item, index) => item === value[index]) ? value : items;
    }
    case 'anyOf': {
      const branch = plan.branches.find((candidate) => fits(value, candidate));
      return branch === undefined ? value : restoreAbsent(value, branch);
    }
    default:
      return plan satisfies never;
  }
}

function restoreObject(
  value: Record<string, unknown>,
  plan: Extract<RestorePlan, { kind: 'object' }>,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (field === null && plan.absentWhenNull.has(key)) {
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    const child = plan.children.get(key);
    if (child === undefined) continue;
    const restored = restoreAbsent(field, child);
    if (restored !== field) {
      copy ??= { ...value };
      copy[key] = restored;
    }
  }
  return copy ?? value;
}

/** Whether `value` has the shape of the anyOf branch `plan` stands for. */
function fits(value: unknown, plan: RestorePlan): boolean {
  switch (plan.kind) {
    case 'object':
      return (
        isPlainObject(value) &&
        Object.keys(value).length === plan.keys.length &&
        plan.keys.every((key) => Object.hasOwn(value, key))
      );
    case 'array':
      return Array.isArray(value);
    case 'anyOf':
      return plan.branches.some((branch) => fits(value, branch));
    default:
      return plan satisfies never;
  }
}

/**
 * The converted schema of an optional field, widened to accept `null`; undefined when it
 * already accepts `null` (then `null` could not stand for an absent field).
 */
export function nullable(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  if (acceptsNull(schema)) return undefined;
  if ('anyOf' in schema) {
    return { ...schema, anyOf: [...(schema.anyOf as unknown[]), { type: 'null' }] };
  }
  if ('type' in schema) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const widened: Record<string, unknown> = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    if ('const' in schema) {
      delete widened.const;
      widened.enum = [schema.const, null];
    }
    return widened;
  }
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: 'null' }],
  };
}

function acceptsNull(schema: Record<string, unknown>): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  return (
    Array.isArray(schema.anyOf) &&
    schema.anyOf.some((branch) => isPlainObject(branch) && acceptsNull(branch))
  );
}
