import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolDefinitionError } from '../errors.js';
import { isPlainObject, type JsonSchema } from './json.js';
import type { SchemaValidator } from './schema-validator.js';
import { convertStandardSchema, isStandardSchema, type SchemaSide } from './standard-schema.js';
import { bindStandardSchema, standardOutput, standardSchemaOf } from './standard-schema-check.js';
import type { ToolRuntime, ToolSpec } from './tool-spec.js';

/** A tool's schemas as the rest of the runtime sees them: JSON Schema only. */
export interface ToolSchemas {
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  /** The schema the handler accepts: `handlerSchema` when given, else `inputSchema`. */
  readonly handlerSchema: JsonSchema;
  /** The handler, given the library's output value when the input is a Standard Schema. */
  readonly handler: ToolSpec<never, unknown, never>['handler'];
}

/** Handlers already given the library's output value (a derived tool must not parse twice). */
const parsedHandlers = new WeakSet<object>();

const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function fail(toolName: string, rule: string, message: string): never {
  throw new ToolDefinitionError(`tool ${JSON.stringify(toolName)}: ${message}`, { rule, toolName });
}

/**
 * The model-visible JSON Schema of one side. A Standard Schema is converted by its library (or
 * taken from the explicit override) and bound to the result, so that validating against the JSON
 * Schema runs the library's own `validate`. `$schema` naming our default dialect is dropped: the
 * model sees the schema a hand-written tool would have.
 */
function jsonSide(
  toolName: string,
  schema: JsonSchema | StandardSchemaV1 | undefined,
  override: JsonSchema | undefined,
  side: SchemaSide,
  derived: boolean,
): JsonSchema | undefined {
  const option = side === 'input' ? 'jsonSchema' : 'outputJsonSchema';
  if (!isStandardSchema(schema)) {
    // A tool derived from a Standard Schema tool carries the override it was converted with.
    if (override !== undefined && !derived) {
      fail(
        toolName,
        'json_schema_override',
        `${option} is only for a Standard Schema ${side}Schema`,
      );
    }
    return schema;
  }
  if (override !== undefined && !isPlainObject(override)) {
    fail(toolName, 'json_schema_override', `${option} must be a JSON Schema object`);
  }
  const { $schema, ...rest } = override ?? convertStandardSchema(toolName, schema, side, option);
  const converted =
    $schema === undefined || $schema === DEFAULT_DIALECT ? rest : { $schema, ...rest };
  bindStandardSchema(converted, schema);
  return converted;
}

/**
 * Resolves `inputSchema` / `outputSchema` (JSON Schema or Standard Schema) to JSON Schemas that
 * pass the registry's own checks (`validator.compile`: dialect, keyword typos, ajv), with the
 * input an object schema. Throws `ToolDefinitionError` naming the broken rule.
 */
export function resolveToolSchemas(
  toolName: string,
  spec: ToolSpec<never, unknown, never>,
  validator: SchemaValidator,
): ToolSchemas {
  const derived = spec.handlerSchema !== undefined;
  const inputSchema = jsonSide(toolName, spec.inputSchema, spec.jsonSchema, 'input', derived);
  if (!isPlainObject(inputSchema) || inputSchema.type !== 'object') {
    fail(toolName, 'schema_type', 'inputSchema must be a JSON Schema with type "object"');
  }
  validator.compile(toolName, inputSchema);
  const handlerSchema = spec.handlerSchema ?? inputSchema;
  if (handlerSchema !== inputSchema) validator.compile(toolName, handlerSchema);
  const outputSchema = jsonSide(
    toolName,
    spec.outputSchema,
    spec.outputJsonSchema,
    'output',
    derived,
  );
  if (outputSchema !== undefined) validator.compile(toolName, outputSchema);
  const handler = spec.handler;
  const standard = standardSchemaOf(handlerSchema);
  if (standard === undefined || typeof handler !== 'function' || parsedHandlers.has(handler)) {
    return { inputSchema, outputSchema, handlerSchema, handler };
  }
  // The handler receives the library's output value (defaults and transforms applied); middleware,
  // events and receipts keep the arguments the model sent.
  const parsed = async function parsed(this: unknown, args: never, runtime: ToolRuntime<never>) {
    return handler.call(this, (await standardOutput(toolName, standard, args)) as never, runtime);
  };
  parsedHandlers.add(parsed);
  return { inputSchema, outputSchema, handlerSchema, handler: parsed };
}

/**
 * The model-visible JSON Schema of a spec's arguments: `inputSchema` itself, or the conversion of
 * a Standard Schema (bound to it, so it still validates with the library). For schema-time code
 * that reads or extends a schema before the spec is defined.
 */
export function jsonInputSchema(spec: ToolSpec<never, unknown, never>): JsonSchema {
  const derived = spec.handlerSchema !== undefined;
  return jsonSide(spec.name, spec.inputSchema, spec.jsonSchema, 'input', derived) ?? {};
}
