/**
 * Groups of the JSON-Schema-Test-Suite (`file › group`) that ajv itself decides wrongly, with why.
 * Only the failing cases of a listed group are skipped; an entry that covers no failing case
 * fails the run, so the list never outlives the bug it names.
 */

const DYNAMIC_REF =
  'ajv implements $dynamicRef only partly: fragment-only references, no dynamic scope across resources';
const OVERFLOW =
  'ajv overflows its stack on $dynamicRef with unevaluated*; Switchyard refuses such calls (fail closed)';
const EMPTY_ENUM =
  'ajv refuses `enum: []`, which 2020-12 allows; the schema is refused at definition';
const PROTO_PROPERTY =
  'ajv drops a `__proto__` entry of `properties` from its generated code (its prototype-pollution guard)';
const EMBEDDED_REF_OVERFLOW =
  'ajv overflows its stack compiling an embedded $id beside a $ref into it; refused at definition';
const LONE_IF =
  'ajv ignores `if` without `then`/`else`, so its annotations never reach unevaluated*';
const UNEVALUATED_ITEMS =
  'ajv does not collect item annotations from contains or nested items for unevaluatedItems';
const VOCABULARY = 'ajv does not honour $vocabulary of a custom meta-schema';
const DRAFT7_REF_SIBLINGS =
  'ajv applies the keywords beside $ref in draft-07, where they must be ignored';
const FORMATS = 'ajv-formats accepts or refuses these edge cases of the format unlike its RFC';

export const AJV_GETS_WRONG: ReadonlyMap<string, string> = new Map([
  [
    'draft2020-12/dynamicRef.json › $dynamicRef avoids the root of each schema, but scopes are still registered',
    DYNAMIC_REF,
  ],
  ['draft2020-12/dynamicRef.json › $dynamicRef points to a boolean schema', DYNAMIC_REF],
  [
    'draft2020-12/dynamicRef.json › $dynamicRef skips over intermediate resources - direct reference',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › $ref and $dynamicAnchor are independent of order - $defs first',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › $ref and $dynamicAnchor are independent of order - $ref first',
    DYNAMIC_REF,
  ],
  ['draft2020-12/dynamicRef.json › $ref to $dynamicRef finds detached $dynamicAnchor', DYNAMIC_REF],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef resolves to the first $dynamicAnchor still in scope that is encountered when the schema is evaluated',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef to a $dynamicAnchor in the same schema resource behaves like a normal $ref to an $anchor',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef to an $anchor in the same schema resource behaves like a normal $ref to an $anchor',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef with a non-matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor',
    DYNAMIC_REF,
  ],
  [
    "draft2020-12/dynamicRef.json › A $dynamicRef with intermediate scopes that don't include a matching $dynamicAnchor does not affect dynamic scope resolution",
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef without a matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › A $dynamicRef without anchor in fragment behaves identical to $ref',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › An $anchor with the same name as a $dynamicAnchor is not used for dynamic scope resolution',
    DYNAMIC_REF,
  ],
  [
    'draft2020-12/dynamicRef.json › after leaving a dynamic scope, it is not used by a $dynamicRef',
    DYNAMIC_REF,
  ],
  ['draft2020-12/dynamicRef.json › multiple dynamic paths to the $dynamicRef keyword', DYNAMIC_REF],
  [
    'draft2020-12/dynamicRef.json › tests for implementation dynamic anchor and reference link',
    DYNAMIC_REF,
  ],
  ['draft2020-12/enum.json › empty enum', EMPTY_ENUM],
  ['draft2020-12/optional/format/date-time.json › validation of date-time strings', FORMATS],
  ['draft2020-12/optional/format/duration.json › validation of duration strings', FORMATS],
  [
    'draft2020-12/optional/format/ecmascript-regex.json › \\a is not an ECMA 262 control escape',
    FORMATS,
  ],
  ['draft2020-12/optional/format/email.json › validation of e-mail addresses', FORMATS],
  [
    'draft2020-12/optional/format/hostname.json › validation of A-label (punycode) host names',
    FORMATS,
  ],
  ['draft2020-12/optional/format/hostname.json › validation of host names', FORMATS],
  ['draft2020-12/optional/format/uri-reference.json › validation of URI References', FORMATS],
  ['draft2020-12/optional/format/uri-template.json › format: uri-template', FORMATS],
  ['draft2020-12/optional/format/uri.json › validation of URIs', FORMATS],
  ['draft2020-12/optional/format/uuid.json › uuid format', FORMATS],
  [
    'draft2020-12/properties.json › properties whose names are Javascript object property names',
    PROTO_PROPERTY,
  ],
  ['draft2020-12/ref.json › URN ref with nested pointer ref', EMBEDDED_REF_OVERFLOW],
  ['draft2020-12/ref.json › refs with relative uris and defs', EMBEDDED_REF_OVERFLOW],
  ['draft2020-12/ref.json › relative refs with absolute uris and defs', EMBEDDED_REF_OVERFLOW],
  [
    'draft2020-12/unevaluatedItems.json › unevaluatedItems and contains interact to control item dependency relationship',
    UNEVALUATED_ITEMS,
  ],
  [
    'draft2020-12/unevaluatedItems.json › unevaluatedItems can see annotations from if without then and else',
    LONE_IF,
  ],
  [
    'draft2020-12/unevaluatedItems.json › unevaluatedItems depends on adjacent contains',
    UNEVALUATED_ITEMS,
  ],
  [
    'draft2020-12/unevaluatedItems.json › unevaluatedItems depends on multiple nested contains',
    UNEVALUATED_ITEMS,
  ],
  ['draft2020-12/unevaluatedItems.json › unevaluatedItems with $dynamicRef', OVERFLOW],
  ['draft2020-12/unevaluatedItems.json › unevaluatedItems with minContains = 0', UNEVALUATED_ITEMS],
  ['draft2020-12/unevaluatedItems.json › unevaluatedItems with nested items', UNEVALUATED_ITEMS],
  [
    'draft2020-12/unevaluatedProperties.json › unevaluatedProperties can see annotations from if without then and else',
    LONE_IF,
  ],
  ['draft2020-12/unevaluatedProperties.json › unevaluatedProperties with $dynamicRef', OVERFLOW],
  [
    'draft2020-12/unevaluatedProperties.json › unevaluatedProperties with if/then/else, then not defined',
    LONE_IF,
  ],
  [
    'draft2020-12/vocabulary.json › schema that uses custom metaschema with with no validation vocabulary',
    VOCABULARY,
  ],
  [
    'draft7/properties.json › properties whose names are Javascript object property names',
    PROTO_PROPERTY,
  ],
  ['draft7/ref.json › $ref prevents a sibling $id from changing the base uri', DRAFT7_REF_SIBLINGS],
  ['draft7/ref.json › ref overrides any sibling keywords', DRAFT7_REF_SIBLINGS],
]);
