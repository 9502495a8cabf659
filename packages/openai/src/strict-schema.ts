import { isPlainObject, type JsonSchema } from 'switchyard/tools';
import { describedConstraint, STRICT_FORMATS, STRICT_KEYWORDS } from './strict-keywords.js';
import { nullable, type RestorePlan, restoreAbsent } from './strict-restore.js';

/**
 * A tool schema in OpenAI's strict subset, or the reasons it cannot be. When `strict`, `schema`
 * is what to send with `strict: true` and `restore` turns the model's arguments back into what
 * the original schema means: a `null` the conversion put in place of an optional field becomes
 * an absent field again, before Switchyard validates them against the original schema.
 */
export type StrictSchemaConversion =
  | {
      readonly strict: true;
      readonly schema: Record<string, unknown>;
      /** The arguments with converted `null`s removed; a copy only when something changed. */
      readonly restore: (argumentsValue: unknown) => unknown;
    }
  | { readonly strict: false; readonly reasons: readonly string[] };

// Limits of OpenAI's Structured Outputs ("Supported schemas", platform.openai.com/docs/guides/
// structured-outputs#supported-schemas): 5000 object properties, 10 levels of nesting, 1000
// enum values in all.
const MAX_PROPERTIES = 5000;
const MAX_DEPTH = 10;
const MAX_ENUM_VALUES = 1000;

interface Walk {
  readonly reasons: string[];
  properties: number;
  enumValues: number;
}

/**
 * Converts a tool's input schema to the subset OpenAI's strict mode takes, when that can be done
 * without changing what the schema means. The rules follow OpenAI's "Supported schemas": the root
 * is an object (not `anyOf`); every object lists all its properties in `required` and has
 * `additionalProperties: false`; an optional field becomes nullable (`type: [T, 'null']`), and
 * `restore` maps the model's `null` back to an absent field; `anyOf`, `enum`, `const`, `pattern`,
 * the number bounds, `minItems`/`maxItems` and nine `format`s are kept. Annotations and
 * constraints strict mode refuses (`default`, `examples`, `minLength`, `maxLength`,
 * `uniqueItems`, other formats, …) move into the field's description: Switchyard still checks
 * them against the original schema, so the calls it accepts do not change.
 *
 * It cannot be strict (the `reasons` say where and why) when a part has no strict equivalent: a
 * free-form object or array, an object open to extra properties, an optional field that already
 * accepts `null`, `allOf`/`oneOf`/`not`/conditionals, `$ref`, tuples, or a schema past the limits.
 *
 * @returns the conversion; never throws (a schema that is not an object yields a reason).
 * @example
 * const conversion = toOpenAIStrictSchema({ type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer', default: 10 } }, required: ['q'] });
 * // conversion.schema.properties.limit: { type: ['integer', 'null'], description: 'Default: 10.' }
 * conversion.restore({ q: 'x', limit: null }); // { q: 'x' }
 */
export function toOpenAIStrictSchema(schema: JsonSchema): StrictSchemaConversion {
  const walk: Walk = { reasons: [], properties: 0, enumValues: 0 };
  if (!isPlainObject(schema) || schema.type !== 'object' || 'anyOf' in schema) {
    return { strict: false, reasons: ['the root is not a plain object schema'] };
  }
  const converted = convertNode(schema, '', 0, walk);
  if (walk.properties > MAX_PROPERTIES) {
    walk.reasons.push(`more than ${MAX_PROPERTIES} properties in all`);
  }
  if (walk.enumValues > MAX_ENUM_VALUES) {
    walk.reasons.push(`more than ${MAX_ENUM_VALUES} enum values in all`);
  }
  if (converted === undefined || walk.reasons.length > 0) {
    return { strict: false, reasons: walk.reasons };
  }
  const { plan } = converted;
  return {
    strict: true,
    schema: converted.schema,
    restore: (value) => (plan === undefined ? value : restoreAbsent(value, plan)),
  };
}

interface Converted {
  readonly schema: Record<string, unknown>;
  /** Undefined when nothing below this node needs restoring. */
  readonly plan: RestorePlan | undefined;
}

function convertNode(
  node: unknown,
  path: string,
  depth: number,
  walk: Walk,
): Converted | undefined {
  const at = placeOf(path);
  if (!isPlainObject(node)) {
    walk.reasons.push(`${at} accepts any value`);
    return undefined;
  }
  if (depth > MAX_DEPTH) {
    walk.reasons.push(`${at} is nested deeper than ${MAX_DEPTH} levels`);
    return undefined;
  }
  const schema: Record<string, unknown> = {};
  const notes: string[] = [];
  const reasonsBefore = walk.reasons.length;
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) {
      notes.push(`Format: ${String(value)}.`);
    } else if (STRICT_KEYWORDS.has(keyword)) {
      schema[keyword] = value;
    } else {
      const note = describedConstraint(keyword, value);
      if (note === null) walk.reasons.push(`${at} uses ${keyword}, which strict mode lacks`);
      else if (note !== '') notes.push(note);
    }
  }
  if (walk.reasons.length > reasonsBefore) return undefined;
  if (notes.length > 0) {
    const description = typeof schema.description === 'string' ? schema.description.trim() : '';
    schema.description = [description, ...notes].filter((part) => part !== '').join(' ');
  }
  if (Array.isArray(schema.enum)) walk.enumValues += schema.enum.length;
  const types = typesOf(schema.type);
  if (types.length === 0 && !('enum' in schema || 'const' in schema || 'anyOf' in schema)) {
    walk.reasons.push(`${at} accepts any value (no type)`);
    return undefined;
  }
  let plan: RestorePlan | undefined;
  if (types.includes('object') || 'properties' in schema) {
    plan = convertObject(schema, path, depth, walk);
  }
  if (types.includes('array')) plan = convertArray(schema, path, depth, walk) ?? plan;
  if ('anyOf' in schema) plan = convertAnyOf(schema, path, depth, walk) ?? plan;
  return { schema, plan };
}

function convertObject(
  schema: Record<string, unknown>,
  path: string,
  depth: number,
  walk: Walk,
): RestorePlan | undefined {
  const at = placeOf(path);
  const properties = schema.properties;
  // An object that describes no properties is a free-form map, unless it is the root: a root
  // with `properties: {}` is how tools (and MCP servers) say they take no arguments.
  const describesNone =
    !isPlainObject(properties) || (Object.keys(properties).length === 0 && path !== '');
  if (describesNone && schema.additionalProperties !== false) {
    walk.reasons.push(`${at} is a free-form object (no properties)`);
    return undefined;
  }
  if (!isPlainObject(properties)) {
    schema.properties = {};
    schema.required = [];
    return undefined;
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    walk.reasons.push(`${at} allows properties it does not describe (additionalProperties)`);
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) {
      walk.reasons.push(`${at} requires ${name}, which it does not describe`);
    }
  }
  const convertedProperties: Record<string, unknown> = {};
  const children = new Map<string, RestorePlan>();
  const absentWhenNull = new Set<string>();
  for (const [name, child] of Object.entries(properties)) {
    walk.properties += 1;
    const converted = convertNode(child, `${path}/${name}`, depth + 1, walk);
    if (converted === undefined) continue;
    let childSchema = converted.schema;
    if (!required.has(name)) {
      const widened = nullable(childSchema);
      if (widened === undefined) {
        walk.reasons.push(
          `${path}/${name} is optional and accepts null: null cannot stand for absent`,
        );
        continue;
      }
      childSchema = widened;
      absentWhenNull.add(name);
    }
    convertedProperties[name] = childSchema;
    if (converted.plan !== undefined) children.set(name, converted.plan);
  }
  schema.properties = convertedProperties;
  schema.required = Object.keys(properties);
  schema.additionalProperties = false;
  if (absentWhenNull.size === 0 && children.size === 0) return undefined;
  return { kind: 'object', keys: Object.keys(properties), absentWhenNull, children };
}

function convertArray(
  schema: Record<string, unknown>,
  path: string,
  depth: number,
  walk: Walk,
): RestorePlan | undefined {
  const at = placeOf(path);
  if (!isPlainObject(schema.items)) {
    walk.reasons.push(`${at} is an array of unspecified or tuple items`);
    return undefined;
  }
  const converted = convertNode(schema.items, `${path}/items`, depth + 1, walk);
  if (converted === undefined) return undefined;
  schema.items = converted.schema;
  return converted.plan === undefined ? undefined : { kind: 'array', items: converted.plan };
}

function convertAnyOf(
  schema: Record<string, unknown>,
  path: string,
  depth: number,
  walk: Walk,
): RestorePlan | undefined {
  const at = placeOf(path);
  if (!Array.isArray(schema.anyOf)) {
    walk.reasons.push(`${at} has an anyOf that is not a list`);
    return undefined;
  }
  const branches: RestorePlan[] = [];
  schema.anyOf = schema.anyOf.map((branch, index) => {
    const converted = convertNode(branch, `${path}/anyOf/${index}`, depth + 1, walk);
    if (converted?.plan !== undefined) branches.push(converted.plan);
    return converted?.schema;
  });
  return branches.length === 0 ? undefined : { kind: 'anyOf', branches };
}

function typesOf(type: unknown): readonly unknown[] {
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}

/** How a reason names the place of a schema node. */
function placeOf(path: string): string {
  return path === '' ? 'the root' : path;
}
