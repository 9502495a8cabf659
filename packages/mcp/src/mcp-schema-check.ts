import { isPlainObject } from 'switchyard/tools';

/** JSON nesting a server's schema may have (a real one rarely passes 20). */
export const MAX_SCHEMA_DEPTH = 64;
/** Values (objects, arrays, scalars) a server's schema may hold. */
export const MAX_SCHEMA_VALUES = 20_000;

/** The reason a JSON value is too deep or too large to be compiled as a schema, if it is. */
function shapeProblem(schema: object): string | undefined {
  // Walked with a stack of its own: the schema may be nested deeper than the call stack allows.
  const pending: Array<{ readonly value: unknown; readonly depth: number }> = [
    { value: schema, depth: 1 },
  ];
  let values = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    values += 1;
    if (values > MAX_SCHEMA_VALUES) return `it holds more than ${MAX_SCHEMA_VALUES} values`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) return `it is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

/**
 * Why a schema a server listed cannot be used, or undefined when it may be compiled: it must be
 * a JSON Schema object (a string, an array or nothing is not), within `MAX_SCHEMA_DEPTH` levels
 * and `MAX_SCHEMA_VALUES` values, so that compiling it cannot exhaust the stack or the time of
 * the process. What the schema says is judged by the validator when the tool is defined.
 */
export function mcpSchemaProblem(
  schema: unknown,
  field: 'inputSchema' | 'outputSchema',
): string | undefined {
  if (schema === undefined) return `${field} is missing`;
  if (!isPlainObject(schema)) {
    const kind = Array.isArray(schema)
      ? 'an array'
      : schema === null
        ? 'null'
        : `a ${typeof schema}`;
    return `${field} must be a JSON Schema object; got ${kind}`;
  }
  const problem = shapeProblem(schema);
  return problem === undefined ? undefined : `${field} cannot be used: ${problem}`;
}
