/**
 * Which JSON Schema keywords OpenAI's strict mode takes, and how the ones it refuses but that only
 * annotate or constrain a value are said in words instead. Source: OpenAI, "Structured Outputs —
 * Supported schemas" (platform.openai.com/docs/guides/structured-outputs#supported-schemas):
 * string `pattern` and `format`, number `minimum`/`maximum`/`exclusiveMinimum`/
 * `exclusiveMaximum`/`multipleOf`, array `minItems`/`maxItems`, `anyOf`, `enum`, `const`;
 * composition (`allOf`, `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`) is
 * not supported. The API answers `'default' is not permitted` to a `default`
 * (dotnet/extensions#6196), and openai/openai-node#1988 documents `minLength`/`maxLength` as
 * refused too.
 */

/** Keywords sent as they are (their subschemas are converted by the walk). */
export const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** The `format`s strict mode knows; any other is said in the description. */
export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords that carry no meaning for the model and are left out. */
const DROPPED = new Set(['$schema', '$id', '$comment']);

/**
 * A keyword strict mode refuses, as a sentence for the description: `''` to drop it silently,
 * `null` when it has no equivalent (the schema then cannot be strict). Vendor keywords (`x-…`)
 * are annotations by convention and are dropped.
 */
export function describedConstraint(keyword: string, value: unknown): string | null {
  if (DROPPED.has(keyword) || keyword.startsWith('x-')) return '';
  switch (keyword) {
    case 'default':
      return `Default: ${JSON.stringify(value)}.`;
    case 'examples':
      return Array.isArray(value)
        ? `Examples: ${value.map((example) => JSON.stringify(example)).join(', ')}.`
        : '';
    case 'minLength':
      return `At least ${String(value)} characters.`;
    case 'maxLength':
      return `At most ${String(value)} characters.`;
    case 'uniqueItems':
      return value === true ? 'Items must be unique.' : '';
    case 'minProperties':
      return `At least ${String(value)} properties.`;
    case 'maxProperties':
      return `At most ${String(value)} properties.`;
    case 'deprecated':
      return value === true ? 'Deprecated.' : '';
    case 'readOnly':
    case 'writeOnly':
    case 'contentEncoding':
    case 'contentMediaType':
      return '';
    default:
      return null;
  }
}
