import { callStateOf } from '../../dispatch/call-state.js';
import type { ToolCallEnvelope } from '../../dispatch/envelope.js';
import { isPlainObject, type JsonSchema } from '../../tools/json.js';

// Derived schemas are cached per source schema object, so the validator's identity cache hits on
// every call instead of hashing a fresh copy.
const derived = new WeakMap<object, Map<string, JsonSchema>>();

/** `schema` without the property `field` (and without it in `required`). */
export function schemaWithoutField(schema: JsonSchema, field: string): JsonSchema {
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : undefined;
  const listed = properties !== undefined && Object.hasOwn(properties, field);
  if (!listed && !(required?.includes(field) ?? false)) return schema;
  let byField = derived.get(schema);
  if (byField === undefined) {
    byField = new Map();
    derived.set(schema, byField);
  }
  let result = byField.get(field);
  if (result === undefined) {
    const { [field]: _dropped, ...rest } = properties ?? {};
    result = {
      ...schema,
      ...(properties === undefined ? {} : { properties: rest }),
      ...(required === undefined ? {} : { required: required.filter((name) => name !== field) }),
    };
    byField.set(field, result);
  }
  return result;
}

/**
 * The schema the binder binds to, and that "arguments already valid" is checked against: the
 * schema the executor will check the rewritten arguments against. That is the tool handler's own
 * schema (`handlerSchema`), reached through the dispatcher's record of the call; for an envelope
 * that did not come from a dispatcher, the model-visible schema minus the intent field. Null when
 * the call has no schema (an unknown tool).
 */
export function bindingSchemaOf(call: ToolCallEnvelope, intentField: string): JsonSchema | null {
  if (call.schema === null || call.schema === undefined) return null;
  const tool = callStateOf(call)?.tool;
  if (tool !== undefined && tool.name === call.toolName) return tool.handlerSchema;
  return schemaWithoutField(call.schema, intentField);
}
