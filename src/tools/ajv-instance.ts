import { createRequire } from 'node:module';
import type { Ajv, Options as AjvOptions, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { errorMessage, InvalidOptionError } from '../errors.js';
import { BASE_OPTIONS } from './ajv-options.js';
import { validate as validateMeta } from './generated/meta-2020-12.js';
import type { JsonSchema } from './json.js';
import type { Dialect } from './schema-keywords.js';
import { linearRegExpEngine } from './schema-pattern.js';

/**
 * ajv and its formats are loaded when the first validator instance is set up, not when Switchyard
 * is imported: they are ~260 CommonJS modules and tens of milliseconds of start-up that a process
 * which never validates (the CLI's `--version`, a worker) should not pay. They are CommonJS, so a
 * synchronous `require` keeps validator set-up synchronous.
 */
const require = createRequire(import.meta.url);

function ajvClass(dialect: Dialect): new (options: AjvOptions) => Ajv {
  if (dialect === '2020-12') {
    return (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020;
  }
  if (dialect === '2019-09') {
    return (require('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019;
  }
  return (require('ajv') as { Ajv: typeof Ajv }).Ajv;
}

function addFormats(ajv: Ajv): void {
  (require('ajv-formats') as { default: FormatsPlugin }).default(ajv);
}

/** How `format` is treated: `assert` fails arguments that break a known format; `annotate` ignores it. */
export type FormatMode = 'assert' | 'annotate';

/** A schema resource a `$ref` may name: an object schema or a boolean schema. */
export type SchemaResource = JsonSchema | boolean;

/** The dialect a schema declares in `$schema`, undefined when it declares none or an unknown one. */
export function declaredDialect(declared: unknown): Dialect | undefined {
  if (typeof declared !== 'string') return undefined;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return 'draft-07';
  return undefined;
}

/** How an ajv instance is set up. */
export interface AjvSetup {
  readonly dialect: Dialect;
  readonly formats: FormatMode;
  /**
   * Check own properties only. Needed, and only paid for (~2.5× per check), where a schema names
   * a property `Object.prototype` also has: an inherited `constructor` must never count as present.
   */
  readonly ownProperties: boolean;
  readonly resources: Readonly<Record<string, SchemaResource>>;
}

/**
 * A fresh ajv for `setup.dialect`, with formats (asserted or ignored) and the resources registered
 * by URI. A resource that declares another dialect is left to that dialect's instance.
 * Throws `InvalidOptionError` (option `schemas`) when a resource is not a valid schema.
 */
export function createAjv(setup: AjvSetup): Ajv {
  const { dialect, formats, resources } = setup;
  // The 2020-12 meta-schema check is precompiled for the asserted-formats options (see
  // scripts/generate-meta-validator.ts): this instance leaves the check to `checkSchema`.
  const precompiled = dialect === '2020-12' && formats === 'assert';
  const options: AjvOptions = {
    ...BASE_OPTIONS,
    // `pattern` and `patternProperties` come from whoever wrote the schema (an MCP server): they
    // run on a linear-time engine, never on a backtracking one.
    code: { regExp: linearRegExpEngine() },
    validateFormats: formats === 'assert',
    ownProperties: setup.ownProperties,
    ...(precompiled ? { validateSchema: false } : {}),
  };
  const ajv = new (ajvClass(dialect))(options);
  if (precompiled) PRECOMPILED_META.add(ajv);
  if (dialect === 'draft-07') ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  if (formats === 'assert') addFormats(ajv);
  for (const [uri, resource] of Object.entries(resources)) {
    const own = typeof resource === 'object' ? declaredDialect(resource.$schema) : undefined;
    if (own !== undefined && own !== dialect) continue;
    try {
      checkSchema(ajv, resource);
      ajv.addSchema(resource as JsonSchema, uri);
    } catch (error) {
      throw new InvalidOptionError(
        'schemas',
        `schemas[${JSON.stringify(uri)}] is not a valid ${dialect} schema: ${errorMessage(error)}`,
      );
    }
  }
  return ajv;
}

/** Instances whose meta-schema check `checkSchema` does with the precompiled validator. */
const PRECOMPILED_META = new WeakSet<Ajv>();

const META_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Throws what ajv throws for a schema its meta-schema refuses (`schema is invalid: …`). An
 * instance set up without ajv's own check runs the precompiled 2020-12 one, the same check
 * without compiling it in every process; a schema naming another `$schema` goes to ajv's own.
 */
export function checkSchema(ajv: Ajv, schema: SchemaResource): void {
  if (!PRECOMPILED_META.has(ajv)) return;
  const declared = typeof schema === 'object' ? schema.$schema : undefined;
  if (declared !== undefined && declared !== META_2020_12 && declared !== `${META_2020_12}#`) {
    ajv.validateSchema(schema as JsonSchema, true);
    return;
  }
  if (!validateMeta(schema)) {
    throw new Error(`schema is invalid: ${ajv.errorsText(validateMeta.errors)}`);
  }
}

/**
 * Compiles `schema` on `ajv` after the meta-schema check ajv would have made itself. The schema is
 * registered under its own `$id` (or as the nameless document) while it compiles, and only then:
 * its references to itself (`#`, its `$id`, a URN, a relative URI from an embedded resource back
 * to the root) need that registration to resolve, and another tool may use the same `$id` for
 * another schema. Where a registered resource already holds that URI, the resource answers.
 */
export function compileSchema(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  checkSchema(ajv, schema);
  const key = typeof schema.$id === 'string' ? schema.$id.replace(/#$/, '') : '';
  const taken = ajv.schemas[key] !== undefined || ajv.refs[key] !== undefined;
  if (taken || key.startsWith('#')) return ajv.compile(schema);
  ajv.addSchema(schema, key);
  try {
    const validate = ajv.getSchema(key);
    if (validate === undefined) throw new Error(`the schema registered as "${key}" is missing`);
    return validate;
  } finally {
    ajv.removeSchema(key);
  }
}
