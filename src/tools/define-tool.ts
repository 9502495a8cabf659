import { ToolDefinitionError } from '../errors.js';
import { checkInputExamples } from './input-examples.js';
import { hasOwn, isPlainObject, type JsonObject, type JsonSchema } from './json.js';
import { defaultSchemaValidator, type SchemaValidator } from './schema-validator.js';
import { assertToolName } from './tool-names.js';
import { deriveKind, resolveSafety } from './tool-safety.js';
import { resolveToolSchemas } from './tool-schemas.js';
import {
  type InjectedName,
  type RetryPolicy,
  TOOL_KINDS,
  type Tool,
  type ToolExecutorSpec,
  type ToolSchema,
  type ToolSpec,
} from './tool-spec.js';
import type { InferToolArgs, SchemaFor } from './tool-types.js';

const INJECTABLE: readonly InjectedName[] = ['context', 'stores', 'secrets'];
const INLINE: ToolExecutorSpec = Object.freeze({ kind: 'inline' });

function fail(toolName: string, rule: string, message: string): never {
  throw new ToolDefinitionError(`tool ${JSON.stringify(toolName)}: ${message}`, { rule, toolName });
}

function resolveRetry(
  name: string,
  retry: RetryPolicy | undefined,
  idempotent: boolean,
): Required<RetryPolicy> | undefined {
  if (retry === undefined) return undefined;
  if (!idempotent) {
    fail(
      name,
      'retry_not_idempotent',
      'a retry policy needs a read-only or idempotent tool (set safety.readOnly or safety.idempotent); retrying a tool with side effects could apply them twice',
    );
  }
  const resolved = {
    maxAttempts: retry.maxAttempts ?? 3,
    initialDelayMs: retry.initialDelayMs ?? 100,
    maxDelayMs: retry.maxDelayMs ?? 2000,
    factor: retry.factor ?? 2,
    jitter: retry.jitter ?? true,
  };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) {
    fail(
      name,
      'retry_options',
      `retry.maxAttempts must be an integer ≥ 1; got ${retry.maxAttempts}`,
    );
  }
  for (const key of ['initialDelayMs', 'maxDelayMs', 'factor'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      fail(name, 'retry_options', `retry.${key} must be a finite number ≥ 0; got ${resolved[key]}`);
    }
  }
  return Object.freeze(resolved);
}

function resolveExecutor(name: string, spec: ToolSpec<never, unknown, never>): ToolExecutorSpec {
  const executor = spec.executor ?? INLINE;
  if (executor.kind === 'inline') {
    if (typeof spec.handler !== 'function') fail(name, 'handler', 'handler must be a function');
    return executor;
  }
  if (executor.kind === 'worker') {
    const module = executor.module;
    if (!(module instanceof URL) && (typeof module !== 'string' || module.length === 0)) {
      fail(name, 'executor', 'a worker executor needs a module URL or absolute path');
    }
    return Object.freeze({ ...executor });
  }
  if (executor.kind === 'mcp_server') {
    if (typeof executor.server !== 'string' || executor.server.length === 0) {
      fail(name, 'executor', 'an mcp_server executor needs the server name');
    }
    return Object.freeze({ ...executor });
  }
  if (executor.kind === 'queue') {
    if (executor.queue !== undefined && !/^[\w.-]+$/.test(executor.queue)) {
      fail(name, 'executor', 'a queue name may hold letters, digits, "_", "-" and "." only');
    }
    return Object.freeze({ ...executor });
  }
  return fail(
    name,
    'executor',
    `executor.kind must be "inline", "worker", "mcp_server" or "queue"; got ${JSON.stringify((executor as { kind: unknown }).kind)}`,
  );
}

function checkInjected(
  name: string,
  declared: readonly InjectedName[] | undefined,
  inputSchema: JsonSchema,
): readonly InjectedName[] {
  const injected = declared ?? [];
  const properties = isPlainObject(inputSchema.properties) ? inputSchema.properties : {};
  for (const value of injected) {
    if (!INJECTABLE.includes(value)) {
      fail(
        name,
        'injected',
        `injected values must be among ${INJECTABLE.join(', ')}; got ${JSON.stringify(value)}`,
      );
    }
    if (hasOwn(properties, value)) {
      fail(
        name,
        'injected_in_schema',
        `"${value}" is injected by the runtime and must not appear in the model-visible inputSchema`,
      );
    }
  }
  return Object.freeze([...injected]);
}

/**
 * Checks a tool spec and returns the frozen, fully resolved tool. Throws `ToolDefinitionError`
 * naming the broken rule: invalid name, missing handler, invalid or non-object schema, a Standard
 * Schema without a JSON Schema conversion (`schema_conversion`: pass `jsonSchema`), an injected
 * value declared in the schema, a retry policy on a tool with side effects, a bad timeout, an
 * `inputExamples` entry that does not match the input schema (`input_examples`).
 *
 * `inputSchema` is a JSON Schema or a Standard Schema (zod 4, valibot, …; see
 * docs/standard-schema.md). The handler's argument type is inferred from it (a Standard Schema's
 * output type; a JSON Schema written `as const` through json-schema-to-ts); explicit type
 * parameters are checked against it.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   safety: { sideEffectLevel: 'none' },
 *   handler: ({ a, b }) => a + b,
 * });
 */
export function defineTool<Input extends ToolSchema, Result = unknown, Context = unknown>(
  spec: ToolSpec<NoInfer<InferToolArgs<Input>>, Result, Context, Input>,
  validator?: SchemaValidator,
): Tool<NoInfer<InferToolArgs<Input>>, Result, Context>;
export function defineTool<Args = JsonObject, Result = unknown, Context = unknown>(
  spec: ToolSpec<Args, Result, Context, SchemaFor<Args>>,
  validator?: SchemaValidator,
): Tool<Args, Result, Context>;
export function defineTool<Args, Result, Context>(
  spec: ToolSpec<Args, Result, Context>,
  validator: SchemaValidator = defaultSchemaValidator,
): Tool<Args, Result, Context> {
  if (!isPlainObject(spec)) {
    throw new ToolDefinitionError('a tool spec must be an object', { rule: 'spec_type' });
  }
  const loose = spec as unknown as ToolSpec<never, unknown, never>;
  const foreignName = spec.foreignName === true;
  assertToolName(spec.name, { foreign: foreignName });
  const name = spec.name;
  if (typeof spec.description !== 'string')
    fail(name, 'description', 'description must be a string');
  const { inputSchema, outputSchema, handlerSchema, handler } = resolveToolSchemas(
    name,
    loose,
    validator,
  );
  if (spec.deferLoading !== undefined && typeof spec.deferLoading !== 'boolean') {
    fail(
      name,
      'defer_loading',
      `deferLoading must be a boolean; got ${JSON.stringify(spec.deferLoading)}`,
    );
  }
  if (spec.kind !== undefined && !TOOL_KINDS.includes(spec.kind)) {
    fail(
      name,
      'kind',
      `kind must be one of ${TOOL_KINDS.join(', ')}; got ${JSON.stringify(spec.kind)}`,
    );
  }
  if (
    spec.timeoutMs !== undefined &&
    (typeof spec.timeoutMs !== 'number' ||
      !(spec.timeoutMs > 0) ||
      !Number.isFinite(spec.timeoutMs))
  ) {
    fail(name, 'timeout', `timeoutMs must be a positive finite number; got ${spec.timeoutMs}`);
  }
  const inputExamples = checkInputExamples(name, spec.inputExamples, inputSchema, validator);
  const declaredSafety = spec.safety ?? {};
  const safety = Object.freeze(resolveSafety(declaredSafety));
  // The overrides became `inputSchema` / `outputSchema`; a defined tool carries JSON Schema only.
  const {
    jsonSchema: _json,
    outputJsonSchema: _outputJson,
    outputSchema: _output,
    inputExamples: _examples,
    ...rest
  } = spec;
  const tool: Tool<Args, Result, Context> = {
    ...rest,
    name,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(inputExamples === undefined ? {} : { inputExamples }),
    ...(handler === undefined
      ? {}
      : { handler: handler as Tool<Args, Result, Context>['handler'] }),
    title: spec.title ?? name,
    handlerSchema,
    injected: checkInjected(name, loose.injected, inputSchema),
    safety,
    kind: spec.kind ?? deriveKind(declaredSafety, safety),
    retry: resolveRetry(name, spec.retry, safety.idempotent),
    executor: resolveExecutor(name, loose),
    deferLoading: spec.deferLoading === true,
    foreignName,
    annotations: Object.freeze({ ...spec.annotations }),
  };
  return Object.freeze(tool);
}
