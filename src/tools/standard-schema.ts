import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { errorMessage, ToolDefinitionError } from '../errors.js';
import { isPlainObject, type JsonSchema } from './json.js';

export type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** Which side of a Standard Schema a JSON Schema describes: what it accepts, or what it returns. */
export type SchemaSide = 'input' | 'output';

/**
 * True for a Standard Schema v1 (zod 4, valibot, arktype, …). Arktype's schemas are functions,
 * so functions count too; a plain JSON Schema never has a `~standard` key.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

type ZodClassic = { toJSONSchema(params: { target: string; io: SchemaSide }): unknown };

/** zod 4 before 4.2 has no `~standard.jsonSchema`, but its classic schemas carry `toJSONSchema`. */
function zodConverter(schema: StandardSchemaV1): ((side: SchemaSide) => unknown) | undefined {
  const method = (schema as Partial<ZodClassic>).toJSONSchema;
  if (schema['~standard'].vendor !== 'zod' || typeof method !== 'function') return undefined;
  return (side) => method.call(schema, { target: 'draft-2020-12', io: side });
}

function standardConverter(schema: StandardSchemaV1): ((side: SchemaSide) => unknown) | undefined {
  const converter = (schema as unknown as Partial<StandardJSONSchemaV1>)['~standard']?.jsonSchema;
  if (!isPlainObject(converter) || typeof converter.input !== 'function') return undefined;
  return (side) => converter[side]({ target: 'draft-2020-12' });
}

/**
 * The JSON Schema of one side of a Standard Schema, from the library's own conversion: the
 * Standard JSON Schema interface (`~standard.jsonSchema`) where offered, else zod 4's
 * `toJSONSchema`. Throws `ToolDefinitionError` (rule `schema_conversion`) when the library offers
 * neither or its conversion fails (an unrepresentable type such as a date or a bigint): the user
 * then passes the JSON Schema explicitly.
 */
export function convertStandardSchema(
  toolName: string,
  schema: StandardSchemaV1,
  side: SchemaSide,
  option: string,
): JsonSchema {
  const vendor = schema['~standard'].vendor;
  const convert = standardConverter(schema) ?? zodConverter(schema);
  const fix = `pass the JSON Schema the model should see as \`${option}\``;
  if (convert === undefined) {
    throw new ToolDefinitionError(
      `tool ${JSON.stringify(toolName)}: the ${vendor} schema offers no JSON Schema conversion (neither ~standard.jsonSchema nor zod's toJSONSchema); ${fix}`,
      { rule: 'schema_conversion', toolName },
    );
  }
  let converted: unknown;
  try {
    converted = convert(side);
  } catch (error) {
    throw new ToolDefinitionError(
      `tool ${JSON.stringify(toolName)}: the ${vendor} schema could not be converted to JSON Schema (${errorMessage(error)}); ${fix}`,
      { rule: 'schema_conversion', toolName, cause: error },
    );
  }
  if (!isPlainObject(converted)) {
    throw new ToolDefinitionError(
      `tool ${JSON.stringify(toolName)}: the ${vendor} schema converted to ${typeof converted}, not a JSON Schema object; ${fix}`,
      { rule: 'schema_conversion', toolName },
    );
  }
  return converted;
}
