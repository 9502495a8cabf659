import { performance } from 'node:perf_hooks';
import { InvalidOptionError } from '../../errors.js';
import { isPlainObject } from '../../tools/json.js';
import { defaultSchemaValidator, type SchemaValidator } from '../../tools/schema-validator.js';
import { type BudgetTimer, setTimeoutTimer } from './binder-budget.js';
import { DEFAULT_BINDER_SYSTEM } from './binder-prompt.js';
import type { BinderFn } from './binder-types.js';

/** What the binder does when its hop fails (timeout, transport error, schema error). */
export type BinderFailureMode = 'passthrough' | 'reject' | 'raise';

/** Options of `withNaturalLanguageExecutor`. */
export interface NaturalLanguageExecutorOptions {
  /** The binder's provider, recorded on `audit.binder.provider` (e.g. `cerebras`). Required. */
  readonly provider: string;
  /** The binder's model. Required. */
  readonly model: string;
  /** Hard wall-clock budget of the binder hop, in ms (≥ 1). Default 500. */
  readonly timeoutMs?: number;
  /** Must be 0 (the default): retries defeat the latency win. */
  readonly maxRetries?: number;
  /** The argument that carries the planner's intent. Default `_nl_intent`. */
  readonly intentField?: string;
  /** Its description in the model-visible schema (used by the paired schema transform). */
  readonly intentDescription?: string;
  /** Skip the hop when the arguments, without the intent, already satisfy the schema. Default true. */
  readonly passthroughWhenArgsValid?: boolean;
  /** Default `passthrough`: hand the call on without the intent (the executor refuses what is missing). */
  readonly onFailure?: BinderFailureMode;
  /** The binder's system prompt. Default `DEFAULT_BINDER_SYSTEM`. */
  readonly system?: string;
  /**
   * The binder the hop calls. Required: `createOpenAIBinder({ client, model })` from
   * `@switchyard/openai`, `createAnthropicBinder` from `@switchyard/anthropic`, or your own.
   */
  readonly binderFn: BinderFn;
  /** Monotonic clock in ms, for the latency measure. Default `performance.now`. */
  readonly now?: () => number;
  /** Arms the budget timer; returns its disarm function. Default: `setTimeout`/`clearTimeout`. */
  readonly timer?: BudgetTimer;
  /** Validates arguments and bound output. Default: the shared `SchemaValidator`. */
  readonly validator?: SchemaValidator;
}

/** The options with every default decided. */
export interface BinderSettings {
  readonly provider: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly intentField: string;
  readonly intentDescription: string;
  readonly passthroughWhenArgsValid: boolean;
  readonly onFailure: BinderFailureMode;
  readonly system: string;
  readonly binderFn: BinderFn;
  readonly now: () => number;
  readonly timer: BudgetTimer;
  readonly validator: SchemaValidator;
}

/** Description of the intent parameter the schema transform adds. */
export const DEFAULT_INTENT_DESCRIPTION =
  'Natural-language fallback intent: when you cannot fill the arguments exactly, describe ' +
  'what the call should do here and they are bound for you.';

const FACTORY = 'withNaturalLanguageExecutor';
const KNOWN = new Set<string>([
  'provider',
  'model',
  'timeoutMs',
  'maxRetries',
  'intentField',
  'intentDescription',
  'passthroughWhenArgsValid',
  'onFailure',
  'system',
  'binderFn',
  'now',
  'timer',
  'validator',
]);
const FAILURE_MODES: readonly BinderFailureMode[] = ['passthrough', 'reject', 'raise'];

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function fail(option: string, rule: string, value: unknown): never {
  throw new InvalidOptionError(option, `${FACTORY}: ${option} ${rule}; got ${shown(value)}`);
}

function text(option: string, value: unknown, fallback?: string): string {
  const resolved = value ?? fallback;
  if (typeof resolved !== 'string' || resolved.trim() === '') {
    fail(option, 'must be a non-empty string', resolved);
  }
  return resolved;
}

function number(option: string, value: unknown, fallback: number, min: number, integer = false) {
  const resolved = value ?? fallback;
  if (
    typeof resolved !== 'number' ||
    !Number.isFinite(resolved) ||
    resolved < min ||
    (integer && !Number.isInteger(resolved))
  ) {
    fail(option, `must be a finite ${integer ? 'integer' : 'number'} ≥ ${min}`, resolved);
  }
  return resolved;
}

function fn<T>(option: string, value: unknown, fallback: T): T {
  const resolved = value ?? fallback;
  if (typeof resolved !== 'function') fail(option, 'must be a function', resolved);
  return resolved as T;
}

/**
 * Checks the options of `withNaturalLanguageExecutor` and fills in the defaults. Throws an
 * `InvalidOptionError` naming the first bad option, so a misconfigured stack fails at construction.
 */
export function resolveBinderOptions(options: NaturalLanguageExecutorOptions): BinderSettings {
  if (!isPlainObject(options)) {
    throw new InvalidOptionError('options', `${FACTORY}: options must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(key, 'is not an option of this middleware', key);
  }
  const provider = text('provider', options.provider);
  const model = text('model', options.model);
  const timeoutMs = number('timeoutMs', options.timeoutMs, 500, 1);
  if (options.maxRetries !== undefined && options.maxRetries !== 0) {
    fail(
      'maxRetries',
      'must be 0: retries defeat the latency win (a binder that needs a second shot wants a better model or prompt, not another hop on the hot path)',
      options.maxRetries,
    );
  }
  const passthroughWhenArgsValid = options.passthroughWhenArgsValid ?? true;
  if (typeof passthroughWhenArgsValid !== 'boolean') {
    fail('passthroughWhenArgsValid', 'must be a boolean', passthroughWhenArgsValid);
  }
  const onFailure = options.onFailure ?? 'passthrough';
  if (!FAILURE_MODES.includes(onFailure)) {
    fail('onFailure', `must be one of ${FAILURE_MODES.join(', ')}`, onFailure);
  }
  const validator = options.validator ?? defaultSchemaValidator;
  if (typeof (validator as Partial<SchemaValidator>)?.check !== 'function') {
    fail('validator', 'must be a SchemaValidator', validator);
  }
  if (options.binderFn === undefined) {
    throw new InvalidOptionError(
      'binderFn',
      `${FACTORY}: binderFn is required (createOpenAIBinder from @switchyard/openai, createAnthropicBinder from @switchyard/anthropic, or your own)`,
    );
  }
  const binderFn = fn<BinderFn>('binderFn', options.binderFn, options.binderFn);
  return {
    provider,
    model,
    timeoutMs,
    intentField: text('intentField', options.intentField, '_nl_intent'),
    intentDescription: text(
      'intentDescription',
      options.intentDescription,
      DEFAULT_INTENT_DESCRIPTION,
    ),
    passthroughWhenArgsValid,
    onFailure,
    system: text('system', options.system, DEFAULT_BINDER_SYSTEM),
    binderFn,
    now: fn('now', options.now, () => performance.now()),
    timer: fn('timer', options.timer, setTimeoutTimer),
    validator,
  };
}
