import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Ajv, ValidateFunction } from 'ajv';
import { errorMessage, InvalidOptionError, ToolDefinitionError } from '../errors.js';
import {
  compileSchema,
  createAjv,
  declaredDialect,
  type FormatMode,
  type SchemaResource,
} from './ajv-instance.js';
import { canonicalHash } from './canonical-json.js';
import { isPlainObject, type JsonSchema } from './json.js';
import { repairMessage, type SchemaIssue, schemaIssues } from './repair-message.js';
import { type Dialect, inspectSchema } from './schema-keywords.js';
import { checkStandardSchema, standardSchemaOf } from './standard-schema-check.js';

export type { FormatMode, SchemaResource } from './ajv-instance.js';

/** The outcome of checking arguments against a schema. */
export type ArgumentCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly SchemaIssue[]; readonly repair: string };

/** Options of a `SchemaValidator`. */
export interface SchemaValidatorOptions {
  /**
   * `assert` (default) fails arguments that break a known `format` (`email`, `date`, `uuid`, …):
   * fail closed, as tool arguments deserve. `annotate` treats `format` as an annotation, as the
   * drafts do by default. Unknown formats are annotations either way.
   */
  readonly formats?: FormatMode;
  /**
   * Schemas that `$ref` may name, keyed by the URI they are found at (nothing is ever fetched).
   * A resource that declares a `$schema` serves that dialect only. Default: none.
   */
  readonly schemas?: Readonly<Record<string, SchemaResource>>;
}

const VALID: ArgumentCheck = Object.freeze({ valid: true });
const FORMAT_MODES: readonly FormatMode[] = ['assert', 'annotate'];

function dialectOf(schema: JsonSchema, toolName: string): Dialect {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12'; // MCP's default dialect
  const dialect = declaredDialect(declared);
  if (dialect !== undefined) return dialect;
  throw new ToolDefinitionError(
    `tool ${JSON.stringify(toolName)}: unsupported $schema ${JSON.stringify(declared)}; use draft-06, draft-07, 2019-09 or 2020-12`,
    { rule: 'schema_dialect', toolName },
  );
}

function checkOptions(options: SchemaValidatorOptions): void {
  if (options.formats !== undefined && !FORMAT_MODES.includes(options.formats)) {
    throw new InvalidOptionError(
      'formats',
      `formats must be "assert" or "annotate"; got ${JSON.stringify(options.formats)}`,
    );
  }
  if (options.schemas !== undefined && !isPlainObject(options.schemas)) {
    throw new InvalidOptionError('schemas', 'schemas must be an object mapping URIs to schemas');
  }
}

/**
 * Validates tool arguments against JSON Schemas with ajv. Each schema is compiled once and cached
 * by tool and schema hash (and by object identity, for the per-call fast path); `compileCount`
 * shows that calls never recompile.
 *
 * The dialect is routed by `$schema` (2020-12 when absent, as MCP specifies). Schemas the drafts
 * allow compile (short of the few ajv cannot evaluate). Unknown keywords are annotations, except
 * those one slip away from a known keyword (`requried`, `maxlength`) or belonging to another
 * draft (`prefixItems` in draft-07), which are definition errors: they would silently validate
 * nothing. Inherited properties never count as present. A validator that fails (a stack overflow
 * on a deep recursive schema) yields an invalid check, never a throw.
 *
 * @param options `formats` (default `assert`) and `schemas` (default none); throws
 *   `InvalidOptionError` naming a bad option.
 */
export class SchemaValidator {
  /** How this validator treats `format`. */
  readonly formats: FormatMode;
  private readonly resources: Readonly<Record<string, SchemaResource>>;
  /** Whether a registered resource names an inherited property (then every check is own-only). */
  private readonly resourcesNameInherited: boolean;
  private readonly instances = new Map<string, Ajv>();
  private readonly byHash = new Map<string, ValidateFunction>();
  private readonly byObject = new WeakMap<object, ValidateFunction>();
  private compilations = 0;
  /**
   * The schema `check` saw last and how it is checked: a batch checks one tool's schema over and
   * over, and the two lookups behind it (a WeakMap each) cost more than the check itself.
   */
  private lastSchema: JsonSchema | null = null;
  private lastStandard: StandardSchemaV1 | undefined;
  private lastValidate: ValidateFunction | null = null;

  constructor(options: SchemaValidatorOptions = {}) {
    checkOptions(options);
    this.formats = options.formats ?? 'assert';
    this.resources = { ...options.schemas };
    this.resourcesNameInherited = Object.values(this.resources).some(
      (resource) => inspectSchema(resource, '2020-12').namesInherited,
    );
  }

  /** Number of schemas compiled so far (not cache hits). */
  get compileCount(): number {
    return this.compilations;
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
    let validate: ValidateFunction;
    try {
      validate = this.compiledOrCached(toolName, schema);
    } catch (error) {
      if (error instanceof InvalidOptionError || error instanceof ToolDefinitionError) throw error;
      // A schema nested too deeply for a recursive walk (hashing it, ajv's compiler) is refused
      // like any other schema that cannot be compiled, never let through as a stack overflow.
      const reason =
        error instanceof RangeError ? 'it is nested too deeply to compile' : errorMessage(error);
      throw new ToolDefinitionError(
        `tool ${JSON.stringify(toolName)}: invalid JSON Schema: ${reason}`,
        { rule: 'schema_invalid', toolName, cause: error },
      );
    }
    this.byObject.set(schema, validate);
    return validate;
  }

  /** The validator of `schema` from the cache by tool and hash, or compiled now. */
  private compiledOrCached(toolName: string, schema: JsonSchema): ValidateFunction {
    // A schema goes to providers as JSON: one that JSON.stringify cannot write (nested too deeply
    // for its recursion) is refused here, at definition, rather than at the first request.
    JSON.stringify(schema);
    const key = `${toolName}\0${canonicalHash(schema)}`;
    let validate = this.byHash.get(key);
    if (validate !== undefined) return validate;
    const dialect = dialectOf(schema, toolName);
    const { suspect, namesInherited } = inspectSchema(schema, dialect);
    if (suspect !== undefined) {
      throw new ToolDefinitionError(
        `tool ${JSON.stringify(toolName)}: invalid JSON Schema: keyword ${JSON.stringify(suspect.keyword)} at ${suspect.at} ${suspect.reason}`,
        { rule: 'schema_invalid', toolName },
      );
    }
    const ownProperties = namesInherited || this.resourcesNameInherited;
    validate = compileSchema(this.instance(dialect, ownProperties), schema);
    this.compilations += 1;
    this.byHash.set(key, validate);
    return validate;
  }

  /** Checks `args` against `schema`, with a repair message for the model on failure. */
  check(toolName: string, schema: JsonSchema, args: unknown): ArgumentCheck {
    if (schema !== this.lastSchema) this.remember(toolName, schema);
    const standard = this.lastStandard; // converted from a Standard Schema: its library decides
    if (standard !== undefined) return checkStandardSchema(toolName, standard, args);
    const validate = this.lastValidate!;
    let valid: boolean;
    try {
      valid = validate(args) === true;
    } catch (error) {
      return validatorFailure(toolName, error);
    }
    if (valid) return VALID;
    try {
      const issues = schemaIssues(validate.errors ?? []);
      return { valid: false, issues, repair: repairMessage(toolName, issues) };
    } catch (error) {
      return validatorFailure(toolName, error);
    }
  }

  /** Makes `schema` the one `check` remembers, compiled (or its Standard Schema found). */
  private remember(toolName: string, schema: JsonSchema): void {
    const standard = standardSchemaOf(schema);
    const validate = standard === undefined ? this.compile(toolName, schema) : null;
    this.lastSchema = schema;
    this.lastStandard = standard;
    this.lastValidate = validate;
  }

  private instance(dialect: Dialect, ownProperties: boolean): Ajv {
    const key = `${dialect}:${ownProperties}`;
    let ajv = this.instances.get(key);
    if (ajv === undefined) {
      ajv = createAjv({ dialect, formats: this.formats, ownProperties, resources: this.resources });
      this.instances.set(key, ajv);
    }
    return ajv;
  }
}

/** Fail closed: arguments that could not be checked are refused, with the reason. */
function validatorFailure(toolName: string, error: unknown): ArgumentCheck {
  const reason =
    error instanceof RangeError
      ? 'the arguments are nested too deeply for this schema'
      : `the schema validator failed (${errorMessage(error)})`;
  const issues: SchemaIssue[] = [{ path: '(arguments)', keyword: 'validation', message: reason }];
  return { valid: false, issues, repair: repairMessage(toolName, issues) };
}

/** The validator shared by registries that do not bring their own. */
export const defaultSchemaValidator = new SchemaValidator();
