import type { StandardSchemaV1 } from '@standard-schema/spec';
import { errorMessage } from '../errors.js';
import type { JsonSchema } from './json.js';
import { pointerToPath, repairMessage, type SchemaIssue } from './repair-message.js';

/** The outcome of checking arguments against a Standard Schema (shaped as `ArgumentCheck`). */
export type StandardCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly SchemaIssue[]; readonly repair: string };

const VALID: StandardCheck = Object.freeze({ valid: true });

/**
 * The Standard Schema each converted JSON Schema came from. Keyed by the converted object, so every
 * tool derived from a Standard Schema tool (schema-time middleware spreads the tool) keeps
 * validating with the library, wherever the schema is checked.
 */
const origins = new WeakMap<JsonSchema, StandardSchemaV1>();

/**
 * The library's output value of arguments that passed their check, keyed by the arguments object,
 * until the handler takes it: a call is validated once, not again to get its value. Taken once,
 * so a retried handler never sees a value an earlier attempt may have mutated.
 */
const outputs = new WeakMap<
  object,
  { readonly schema: StandardSchemaV1; readonly value: unknown }
>();

/** Records that `jsonSchema` is the model-visible form of `schema`. */
export function bindStandardSchema(jsonSchema: JsonSchema, schema: StandardSchemaV1): void {
  origins.set(jsonSchema, schema);
}

/** The Standard Schema `jsonSchema` was converted from, if any. */
export function standardSchemaOf(jsonSchema: JsonSchema): StandardSchemaV1 | undefined {
  return origins.get(jsonSchema);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function escapePointer(key: PropertyKey): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A library issue in our terms: the path in the same notation as ajv's issues get. */
function toIssue(issue: StandardSchemaV1.Issue): SchemaIssue {
  const keys = (issue.path ?? []).map((segment) =>
    typeof segment === 'object' && segment !== null ? segment.key : segment,
  );
  const pointer = keys.map((key) => `/${escapePointer(key)}`).join('');
  // The library's own name of the rule: zod calls it `code`, valibot `type`.
  const { code, type } = issue as { code?: unknown; type?: unknown };
  const keyword = typeof code === 'string' ? code : typeof type === 'string' ? type : 'validation';
  return {
    path: pointerToPath(pointer),
    keyword,
    message: issue.message,
  };
}

function failure(toolName: string, issues: readonly SchemaIssue[]): StandardCheck {
  return { valid: false, issues, repair: repairMessage(toolName, issues) };
}

function refused(toolName: string, reason: string): StandardCheck {
  return failure(toolName, [{ path: '(arguments)', keyword: 'validation', message: reason }]);
}

/**
 * Runs the library's `~standard.validate` on `args`, with the same repair message a JSON Schema
 * tool's failure gets. Fails closed: a validator that throws or answers asynchronously (an async
 * refinement) refuses the arguments, since admission decides before anything runs.
 */
export function checkStandardSchema(
  toolName: string,
  schema: StandardSchemaV1,
  args: unknown,
): StandardCheck {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema['~standard'].validate(args);
  } catch (error) {
    return refused(toolName, `the schema validator failed (${errorMessage(error)})`);
  }
  if (isPromiseLike(result)) {
    result.then(undefined, () => undefined); // its verdict is not awaited; never leave it unhandled
    return refused(
      toolName,
      'the schema validates asynchronously; tool arguments need a synchronous schema',
    );
  }
  if (result.issues === undefined) {
    if (typeof args === 'object' && args !== null)
      outputs.set(args, { schema, value: result.value });
    return VALID;
  }
  const issues = result.issues.map(toIssue);
  return failure(
    toolName,
    issues.length > 0
      ? issues
      : [{ path: '(arguments)', keyword: 'validation', message: 'invalid' }],
  );
}

/**
 * The library's output value for arguments admission already accepted: what the handler
 * receives, with the schema's defaults and transforms applied. Reuses the value of the check
 * when the handler gets the very arguments object that was checked.
 */
export async function standardOutput(
  toolName: string,
  schema: StandardSchemaV1,
  args: unknown,
): Promise<unknown> {
  const checked = typeof args === 'object' && args !== null ? outputs.get(args) : undefined;
  if (checked !== undefined && checked.schema === schema) {
    outputs.delete(args as object);
    return checked.value;
  }
  const result = await schema['~standard'].validate(args);
  if (result.issues === undefined) return result.value;
  // Only reachable when the arguments changed after their check: refuse rather than run.
  throw new TypeError(repairMessage(toolName, result.issues.map(toIssue)));
}
