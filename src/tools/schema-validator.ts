import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import addFormatsModule from 'ajv-formats';
import { errorMessage, ToolDefinitionError } from '../errors.js';
import { canonicalHash } from './canonical-json.js';
import { isPlainObject, type JsonSchema } from './json.js';
import { repairMessage, type SchemaIssue, schemaIssues } from './repair-message.js';

const addFormats = addFormatsModule.default;

/** The outcome of checking arguments against a schema. */
export type ArgumentCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly SchemaIssue[]; readonly repair: string };

type Dialect = 'draft-07' | '2019-09' | '2020-12';

const VALID: ArgumentCheck = Object.freeze({ valid: true });

/** Annotation keywords seen in the wild (OpenAPI, editors) that are tolerated like `x-*`. */
const TOLERATED_KEYWORDS = [
  'example',
  'markdownDescription',
  'deprecated',
  'readOnly',
  'writeOnly',
];

const AJV_OPTIONS: AjvOptions = {
  allErrors: true,
  // Errors carry their schema and data: the repair message names expected types and values.
  verbose: true,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  // Two tools may reuse one `$id`; compiled schemas must not be registered globally by it.
  addUsedSchema: false,
  validateFormats: true,
};

function dialectOf(schema: JsonSchema, toolName: string): Dialect {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12'; // MCP's default dialect
  if (typeof declared === 'string') {
    if (declared.includes('2020-12')) return '2020-12';
    if (declared.includes('2019-09')) return '2019-09';
    if (declared.includes('draft-07') || declared.includes('draft-06')) return 'draft-07';
  }
  throw new ToolDefinitionError(
    `tool ${JSON.stringify(toolName)}: unsupported $schema ${JSON.stringify(declared)}; use draft-06, draft-07, 2019-09 or 2020-12`,
    { rule: 'schema_dialect', toolName },
  );
}

function createAjv(dialect: Dialect): Ajv {
  const ajv =
    dialect === '2020-12'
      ? new Ajv2020(AJV_OPTIONS)
      : dialect === '2019-09'
        ? new Ajv2019(AJV_OPTIONS)
        : new Ajv(AJV_OPTIONS);
  if (dialect === 'draft-07') ajv.addMetaSchema(draft06MetaSchema);
  addFormats(ajv);
  for (const keyword of TOLERATED_KEYWORDS) tolerateKeyword(ajv, keyword);
  return ajv;
}

/** Makes `keyword` a no-op annotation unless the dialect already defines it. */
function tolerateKeyword(ajv: Ajv, keyword: string): void {
  if (ajv.getKeyword(keyword) !== false || Object.hasOwn(ajv.RULES.keywords, keyword)) return;
  ajv.addKeyword(keyword);
}

/**
 * Validates tool arguments against JSON Schemas with ajv. Each schema is compiled once and cached
 * by tool and schema hash (and by object identity, for the per-call fast path); `compileCount`
 * shows that calls never recompile.
 *
 * The dialect is routed by `$schema` (2020-12 when absent, as MCP specifies). Vendor `x-*`
 * keywords and unknown `format`s are tolerated; any other unknown keyword is a definition error,
 * so typos like `requried` surface when the tool is defined.
 */
export class SchemaValidator {
  private readonly instances = new Map<Dialect, Ajv>();
  private readonly byHash = new Map<string, ValidateFunction>();
  private readonly byObject = new WeakMap<object, ValidateFunction>();
  private compiled = 0;

  /** Number of schemas compiled so far (not cache hits). */
  get compileCount(): number {
    return this.compiled;
  }

  /** Compiles (or fetches) the validator of `schema`; throws `ToolDefinitionError` if invalid. */
  compile(toolName: string, schema: JsonSchema): ValidateFunction {
    const cached = this.byObject.get(schema);
    if (cached !== undefined) return cached;
    if (!isPlainObject(schema)) {
      throw new ToolDefinitionError(`tool ${JSON.stringify(toolName)}: schema must be an object`, {
        rule: 'schema_type',
        toolName,
      });
    }
    const key = `${toolName}\0${canonicalHash(schema)}`;
    let validate = this.byHash.get(key);
    if (validate === undefined) {
      const ajv = this.instance(dialectOf(schema, toolName));
      tolerateVendorVocabulary(ajv, schema);
      try {
        validate = ajv.compile(schema);
      } catch (error) {
        throw new ToolDefinitionError(
          `tool ${JSON.stringify(toolName)}: invalid JSON Schema: ${errorMessage(error)}`,
          { rule: 'schema_invalid', toolName, cause: error },
        );
      }
      this.compiled += 1;
      this.byHash.set(key, validate);
    }
    this.byObject.set(schema, validate);
    return validate;
  }

  /** Checks `args` against `schema`, with a repair message for the model on failure. */
  check(toolName: string, schema: JsonSchema, args: unknown): ArgumentCheck {
    const validate = this.compile(toolName, schema);
    if (validate(args)) return VALID;
    const issues = schemaIssues(validate.errors ?? []);
    return { valid: false, issues, repair: repairMessage(toolName, issues) };
  }

  private instance(dialect: Dialect): Ajv {
    let ajv = this.instances.get(dialect);
    if (ajv === undefined) {
      ajv = createAjv(dialect);
      this.instances.set(dialect, ajv);
    }
    return ajv;
  }
}

/** Registers every `x-*` keyword and unknown `format` found in `schema` as a no-op on `ajv`. */
function tolerateVendorVocabulary(ajv: Ajv, schema: unknown): void {
  const pending: unknown[] = [schema];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) tolerateKeyword(ajv, key);
      if (key === 'format' && typeof value === 'string' && ajv.formats[value] === undefined) {
        ajv.addFormat(value, true);
      }
      pending.push(value);
    }
  }
}

/** The validator shared by registries that do not bring their own. */
export const defaultSchemaValidator = new SchemaValidator();
