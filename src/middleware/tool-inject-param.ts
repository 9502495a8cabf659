import { isPlainObject, type JsonSchema } from '../tools/json.js';
import type { AnyToolSpec } from '../tools/tool-registry.js';
import { jsonInputSchema } from '../tools/tool-schemas.js';

/**
 * Adds a model-visible parameter to a tool's input schema. Additive and idempotent: a parameter
 * that already exists is left as it is. The property fragment is copied without any `required`
 * flag; requiredness goes into the schema's `required` array (JSON Schema clean).
 *
 * @example
 * toolInjectParam(tool, 'reason', { type: 'string', description: 'Why you call this tool' }, { required: true });
 */
export function toolInjectParam<T extends AnyToolSpec>(
  tool: T,
  name: string,
  fragment: JsonSchema,
  options: { required?: boolean } = {},
): T {
  const schema = jsonInputSchema(tool);
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Object.hasOwn(properties, name)) return tool;
  // A boolean `required` inside a property is not JSON Schema; an array (a nested object's own
  // required list) is, and stays.
  const clean: JsonSchema =
    typeof fragment.required === 'boolean'
      ? Object.fromEntries(Object.entries(fragment).filter(([key]) => key !== 'required'))
      : fragment;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const wantRequired = options.required ?? true;
  const inputSchema: JsonSchema = {
    ...schema,
    properties: { ...properties, [name]: clean },
    ...(wantRequired && !required.includes(name)
      ? { required: [...required, name] }
      : Array.isArray(schema.required)
        ? { required }
        : {}),
  };
  return { ...tool, inputSchema, handlerSchema: tool.handlerSchema ?? schema };
}
