import { editDistance } from './edit-distance.js';

/** The JSON Schema dialects the validator routes to. */
export type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** Keywords whose value is one subschema. */
const SCHEMA_VALUED = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = [
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
  'dependencies',
];

// `$defs` is only a container that `$ref`s point into: harmless in draft-07, and common there.
const DRAFT_07 = [
  ...['$id', '$schema', '$ref', '$comment', '$defs', 'title', 'description', 'default', 'examples'],
  ...['readOnly', 'writeOnly', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum'],
  ...['exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'additionalItems', 'items'],
  ...['maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties', 'minProperties'],
  ...['required', 'additionalProperties', 'definitions', 'properties', 'patternProperties'],
  ...['dependencies', 'propertyNames', 'const', 'enum', 'type', 'format', 'contentMediaType'],
  ...['contentEncoding', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not'],
];
const DRAFT_2019 = [
  ...DRAFT_07,
  ...['$anchor', '$recursiveRef', '$recursiveAnchor', '$vocabulary', '$defs', 'deprecated'],
  ...['dependentSchemas', 'dependentRequired', 'unevaluatedItems', 'unevaluatedProperties'],
  ...['maxContains', 'minContains', 'contentSchema'],
];
// 2020-12's meta-schema keeps `definitions`, `dependencies` and `$recursive*` for compatibility;
// `additionalItems` is gone (array-form `items` became `prefixItems`).
const DRAFT_2020 = [
  ...DRAFT_2019.filter((keyword) => keyword !== 'additionalItems'),
  ...['prefixItems', '$dynamicRef', '$dynamicAnchor'],
];

/** Annotation keywords seen in the wild (OpenAPI, editors), accepted like `x-*`. */
const TOLERATED = ['example', 'markdownDescription', 'deprecated', 'nullable', 'discriminator'];

const VOCABULARY: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  'draft-07': new Set([...DRAFT_07, ...TOLERATED]),
  '2019-09': new Set([...DRAFT_2019, ...TOLERATED]),
  '2020-12': new Set([...DRAFT_2020, ...TOLERATED]),
};

const DIALECTS = Object.keys(VOCABULARY) as Dialect[];

/** A keyword that would silently validate nothing: a slip of a known one, or another draft's. */
export interface SuspectKeyword {
  readonly keyword: string;
  /** The JSON Pointer of the schema object that holds it. */
  readonly at: string;
  /** What is wrong, for the definition error. */
  readonly reason: string;
}

/** Why `keyword` is suspect in `dialect`, or undefined for a known keyword or a plain annotation. */
function suspicion(keyword: string, dialect: Dialect): string | undefined {
  if (keyword.startsWith('x-')) return undefined;
  const owner = DIALECTS.find((other) => VOCABULARY[other].has(keyword));
  if (owner !== undefined) {
    return `is a ${owner} keyword, not a ${dialect} one; declare that dialect in "$schema"`;
  }
  const suggestion = nearest(keyword, VOCABULARY[dialect]);
  return suggestion === undefined
    ? undefined
    : `is unknown; did you mean ${JSON.stringify(suggestion)}?`;
}

/** What a walk over a schema found. */
export interface SchemaInspection {
  /** The first keyword that would silently validate nothing, if any. */
  readonly suspect: SuspectKeyword | undefined;
  /**
   * Whether a property the schema names (`properties`, `required`, `dependentRequired`, …) also
   * exists on `Object.prototype` (`constructor`, `__proto__`, `toString`): its validator must then
   * check own properties only, or an inherited one would count as present.
   */
  readonly namesInherited: boolean;
}

/** Keywords whose keys name properties; those marked true also list names in array values. */
const NAMING_MAPS: Readonly<Record<string, boolean>> = {
  properties: false,
  dependentSchemas: false,
  dependentRequired: true,
  dependencies: true,
};

function namesInheritedBy(keyword: string, value: unknown): boolean {
  const inherited = (name: unknown) => typeof name === 'string' && name in Object.prototype;
  if (keyword === 'required') return Array.isArray(value) && value.some(inherited);
  const listsNames = NAMING_MAPS[keyword];
  if (listsNames === undefined || typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([name, item]) =>
      inherited(name) || (listsNames && Array.isArray(item) && item.some(inherited)),
  );
}

/**
 * Walks a schema's positions (never `enum`, `const` or `default` data), iteratively so any depth
 * is safe. Suspect keywords are typos of the dialect's keywords (`requried`, `propertys`,
 * `maxlength`) and keywords of another draft (`prefixItems` in draft-07); other unknown keywords
 * are annotations, as every draft allows.
 */
export function inspectSchema(schema: unknown, dialect: Dialect): SchemaInspection {
  const vocabulary = VOCABULARY[dialect];
  const pending: Array<{ node: unknown; at: string }> = [{ node: schema, at: '#' }];
  const seen = new Set<object>();
  let namesInherited = false;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, at } = next;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || seen.has(node)) {
      continue;
    }
    seen.add(node);
    for (const [keyword, value] of Object.entries(node)) {
      const path = `${at}/${escapePointer(keyword)}`;
      if (!vocabulary.has(keyword)) {
        const reason = suspicion(keyword, dialect);
        if (reason !== undefined) return { suspect: { keyword, at, reason }, namesInherited };
        continue;
      }
      namesInherited ||= namesInheritedBy(keyword, value);
      if (SCHEMA_ARRAYS.includes(keyword) && Array.isArray(value)) {
        value.forEach((item, index) => {
          pending.push({ node: item, at: `${path}/${index}` });
        });
      } else if (SCHEMA_MAPS.includes(keyword) && typeof value === 'object' && value !== null) {
        for (const [name, item] of Object.entries(value)) {
          pending.push({ node: item, at: `${path}/${escapePointer(name)}` });
        }
      } else if (SCHEMA_VALUED.includes(keyword)) {
        pending.push({ node: value, at: path });
      }
    }
  }
  return { suspect: undefined, namesInherited };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The known keyword `word` is a slip of: same letters in another case, or a small edit away. */
function nearest(word: string, vocabulary: ReadonlySet<string>): string | undefined {
  const lower = word.toLowerCase();
  const bare = lower.replace(/^\$/, '');
  const allowed = bare.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const known of vocabulary) {
    const knownLower = known.toLowerCase();
    if (knownLower === lower) return known;
    if (Math.abs(known.length - word.length) > allowed) continue;
    const distance = editDistance(lower, knownLower, bestDistance - 1);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}
