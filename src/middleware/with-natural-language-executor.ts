import { mergeAudit } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { BinderFailureError, errorMessage, InvalidOptionError } from '../errors.js';
import type { JsonObject, JsonSchema } from '../tools/json.js';
import type { AnyTool, AnyToolSpec } from '../tools/tool-registry.js';
import { type BudgetOutcome, runWithinBudget } from './binder/binder-budget.js';
import {
  DEFAULT_INTENT_DESCRIPTION,
  type NaturalLanguageExecutorOptions,
  resolveBinderOptions,
} from './binder/binder-options.js';
import { readBinderOutput } from './binder/binder-output.js';
import { renderBinderPrompt } from './binder/binder-prompt.js';
import type { BinderAudit, BinderSkipReason, BinderStatus } from './binder/binder-types.js';
import { bindingSchemaOf } from './binder/binding-schema.js';
import { toolInjectParam } from './tool-inject-param.js';

type FailureStatus = Exclude<BinderStatus, 'ok' | 'skipped'>;

/** What the failure checks decided about one binder hop. */
type Verdict =
  | { readonly ok: true; readonly args: JsonObject }
  | {
      readonly ok: false;
      readonly status: FailureStatus;
      readonly reason: string;
      readonly cause?: unknown;
    };

/** The paired halves of the binder: the schema-time transform and the execution-time caller. */
export interface NaturalLanguageExecutor {
  /** Adds the optional intent parameter to every tool (`toolsUseMiddleware(registry, …)`). */
  readonly schemaTransform: (tool: AnyTool) => AnyToolSpec;
  readonly caller: ToolCaller;
}

/**
 * The schema-time half of the binder: adds an optional string parameter (`_nl_intent` by default)
 * to every tool, where a planner that cannot fill the arguments exactly describes the call in
 * words. The handler keeps its own schema. Throws `InvalidOptionError` on an empty `intentField`.
 *
 * @example
 * const advertised = toolsUseMiddleware(registry, naturalLanguageExecutorSchemaTransform());
 */
export function naturalLanguageExecutorSchemaTransform(
  options: { readonly intentField?: string; readonly description?: string } = {},
): (tool: AnyTool) => AnyToolSpec {
  const field = options.intentField ?? '_nl_intent';
  if (typeof field !== 'string' || field.trim() === '') {
    throw new InvalidOptionError(
      'intentField',
      `naturalLanguageExecutorSchemaTransform: intentField must be a non-empty string; got ${JSON.stringify(field)}`,
    );
  }
  const fragment = {
    type: 'string',
    description: options.description ?? DEFAULT_INTENT_DESCRIPTION,
  };
  return function naturalLanguageIntent(tool: AnyTool): AnyToolSpec {
    return toolInjectParam(tool, field, fragment, { required: false });
  };
}

/**
 * A natural-language tool binder: when the planner sends an intent (`_nl_intent`) instead of, or
 * with part of, a tool's arguments, a fast binder model turns it into arguments that satisfy the
 * tool's schema, under a hard latency budget, and the call goes on with them. Off unless composed.
 *
 * Per call: the intent is the trimmed string at `intentField`; the hop is skipped, in this order,
 * when the arguments without it already satisfy the schema (`args_already_valid`, with
 * `passthroughWhenArgsValid`), when the call has no schema (`no_schema`, an unknown tool) or when
 * there is no intent (`no_intent`). Otherwise the binder is called once — never retried — with a
 * signal that aborts at `timeoutMs`; the middleware stops waiting then, whatever the binder does.
 * Failure checks, in order: over budget (`timeout`, even if an answer came), thrown (`transport_error`),
 * no JSON object (`schema_error`), output not satisfying the schema (`schema_error`). On failure,
 * `onFailure` decides: `passthrough` hands the call on without the intent, `reject` answers
 * `schema_violation` ("[blocked: <tool>: binder rejected]"), `raise` throws `BinderFailureError`
 * (`with_natural_language_executor: <reason>`). Every result it hands back carries `audit.binder`
 * (`BinderAudit`). Cancelling the turn aborts the hop and propagates.
 *
 * Place it inside layers that strip fields of their own (a required reason): it binds to the
 * handler's schema, which has none of them.
 *
 * Throws `InvalidOptionError` naming the option at construction (`maxRetries` other than 0, no
 * `binderFn` or `client`, an unknown option, …).
 *
 * @example
 * const binder = withNaturalLanguageExecutor({
 *   provider: 'cerebras',
 *   model: 'gpt-oss-120b',
 *   timeoutMs: 100,
 *   client: new OpenAI({ apiKey, baseURL: 'https://api.cerebras.ai/v1' }),
 * });
 * const dispatcher = createDispatcher({ registry, caller: composeToolCallers([binder]) });
 */
export function withNaturalLanguageExecutor(options: NaturalLanguageExecutorOptions): ToolCaller {
  const settings = resolveBinderOptions(options);
  const { provider, model, intentField, timeoutMs, validator, now } = settings;

  function binderAudit(
    status: BinderStatus,
    latencyMs: number,
    reason: string | null,
    attempts: 0 | 1,
  ): BinderAudit {
    // Literals, not spreads: V8 copies a spread object and then adds a key on a slow path, and
    // this runs on every call.
    return reason === null
      ? { provider, model, status, latencyMs, attempts }
      : { provider, model, status, latencyMs, reason, attempts };
  }

  function withBinderAudit(result: ToolCallResult, binder: BinderAudit): ToolCallResult {
    return Object.assign({}, result, { audit: mergeAudit(result.audit, { binder }) });
  }

  function skipReason(
    call: ToolCallEnvelope,
    schema: JsonSchema | null,
    args: JsonObject,
    intent: string,
  ): BinderSkipReason | null {
    // Cheapest first: valid arguments need no hop and no missing-intent complaint.
    // A bare validity test: the repair text `check` builds on failure is not needed here.
    if (
      schema !== null &&
      settings.passthroughWhenArgsValid &&
      validator.compile(call.toolName, schema)(args) === true
    ) {
      return 'args_already_valid';
    }
    if (schema === null) return 'no_schema';
    if (intent === '') return 'no_intent';
    return null;
  }

  function judge(
    outcome: BudgetOutcome,
    latencyMs: number,
    call: ToolCallEnvelope,
    schema: JsonSchema,
  ): Verdict {
    if (outcome.type === 'overran' || latencyMs > timeoutMs) {
      return {
        ok: false,
        status: 'timeout',
        reason: `binder hop exceeded timeoutMs=${timeoutMs} (elapsed=${Number(latencyMs.toFixed(1))}ms)`,
      };
    }
    if (outcome.type === 'threw') {
      return {
        ok: false,
        status: 'transport_error',
        reason: `binder transport error: ${errorMessage(outcome.error)}`,
        cause: outcome.error,
      };
    }
    const output = readBinderOutput(outcome.response);
    if (!output.ok) return { ok: false, status: 'schema_error', reason: output.reason };
    const check = validator.check(call.toolName, schema, output.args);
    if (!check.valid) {
      const issues = check.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return {
        ok: false,
        status: 'schema_error',
        reason: `binder output failed schema validation: ${issues}`,
      };
    }
    return { ok: true, args: output.args };
  }

  async function onFailure(
    call: ToolCallEnvelope,
    next: Next,
    stripped: ToolCallEnvelope,
    verdict: Extract<Verdict, { ok: false }>,
    latencyMs: number,
  ): Promise<ToolCallResult> {
    const { status, reason } = verdict;
    if (settings.onFailure === 'raise') {
      throw new BinderFailureError({
        status,
        reason,
        toolName: call.toolName,
        callId: call.callId,
        cause: verdict.cause,
      });
    }
    const binder = binderAudit(status, latencyMs, reason, 1);
    if (settings.onFailure === 'reject') {
      return shortCircuitResult(call, {
        status: 'error',
        errorCategory: 'schema_violation',
        error: reason,
        observation: `[blocked: ${call.toolName}: binder rejected]\n${reason}`,
        audit: { binder },
      });
    }
    return withBinderAudit(await next(stripped), binder);
  }

  return async function with_natural_language_executor(
    call: ToolCallEnvelope,
    next: Next,
  ): Promise<ToolCallResult> {
    const args = call.toolArgs;
    const present = Object.hasOwn(args, intentField);
    const raw = present ? args[intentField] : undefined;
    const intent = typeof raw === 'string' ? raw.trim() : '';
    // The intent field is this layer's own: it never reaches the handler, whatever happens.
    const stripped = present ? { ...call, toolArgs: withoutField(args, intentField) } : call;
    const schema = bindingSchemaOf(call, intentField);
    const skip = skipReason(call, schema, stripped.toolArgs, intent);
    if (skip !== null || schema === null) {
      return withBinderAudit(await next(stripped), binderAudit('skipped', 0, skip, 0));
    }
    const partialArgs = stripped.toolArgs;
    const prompt = renderBinderPrompt({
      tool: call.toolName,
      description: call.description,
      intent,
      partialArgs,
      schema,
    });
    const started = now();
    const outcome = await runWithinBudget(
      (signal) =>
        settings.binderFn({
          tool: call.toolName,
          description: call.description,
          intent,
          partialArgs,
          schema,
          system: settings.system,
          prompt,
          signal,
        }),
      { timeoutMs, timer: settings.timer, signal: call.signal },
    );
    const latencyMs = now() - started;
    const verdict = judge(outcome, latencyMs, call, schema);
    if (!verdict.ok) return onFailure(call, next, stripped, verdict, latencyMs);
    const result = await next({ ...call, toolArgs: verdict.args });
    return withBinderAudit(result, binderAudit('ok', latencyMs, null, 1));
  };
}

/**
 * The binder's two halves from one set of options: the schema transform (with the same
 * `intentField` and `intentDescription`) and the caller.
 *
 * @example
 * const binder = naturalLanguageExecutorMiddleware({ provider: 'openai', model: 'gpt-5-nano', client });
 * const dispatcher = createDispatcher({
 *   registry: toolsUseMiddleware(registry, binder.schemaTransform),
 *   caller: composeToolCallers([binder.caller]),
 * });
 */
export function naturalLanguageExecutorMiddleware(
  options: NaturalLanguageExecutorOptions,
): NaturalLanguageExecutor {
  const caller = withNaturalLanguageExecutor(options);
  const schemaTransform = naturalLanguageExecutorSchemaTransform({
    ...(options.intentField === undefined ? {} : { intentField: options.intentField }),
    ...(options.intentDescription === undefined ? {} : { description: options.intentDescription }),
  });
  return { schemaTransform, caller };
}

function withoutField(args: JsonObject, field: string): JsonObject {
  const { [field]: _intent, ...rest } = args;
  return rest;
}
