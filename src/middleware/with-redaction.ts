import type { AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { DEFAULT_MAX_RENDERED_CHARS } from '../dispatch/render-output.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, errorMessage } from '../errors.js';
import { checkFunction, checkNonNegative, optionsObject } from '../option-checks.js';
import { cloneJson } from '../tools/clone-json.js';
import { isPlainObject, type JsonObject } from '../tools/json.js';
import { attachLayer } from './attach-audit.js';
import { layerFailure } from './layer-failure.js';
import { abortError } from './race-abort.js';
import { redactedResult, withheldResult } from './redacted-result.js';

/**
 * What a redactor is shown: the arguments before the call (`in`, a copy it may edit), the outcome
 * after it (`out`; treat the result as read-only and return a new value: it may be shared with an
 * idempotency cache).
 */
export interface RedactionInput {
  readonly phase: 'in' | 'out';
  readonly toolName: string;
  /** The arguments; in the `out` phase, the already redacted ones. */
  readonly args: JsonObject;
  /** The structured result (`out` only; null in `in`). */
  readonly result: unknown;
  /** The error text of a failed call (`out` only). */
  readonly error: string | null;
  readonly call: ToolCallEnvelope;
}

/** What a redactor returns; leave a field out (or return nothing) to keep it as it was. */
export interface RedactionOutput {
  /** `in`: the arguments the tool should receive. */
  readonly args?: JsonObject;
  /** `out`: the structured result to keep; its text is re-rendered from it. */
  readonly result?: unknown;
  /** `out`: the error text to show instead (replaced wherever it appears). */
  readonly error?: string;
  /** Names recorded on `audit.metadata`; by default the argument keys that changed. */
  readonly redactedFields?: readonly string[];
}

/** Scrubs one phase of a call; sync or async. Return nothing to leave everything as it was. */
export type Redactor = (
  input: RedactionInput,
) => RedactionOutput | null | undefined | Promise<RedactionOutput | null | undefined>;

/** Options of `withRedaction`. */
export interface RedactionOptions {
  /** Longest re-rendered text of a redacted result. Default 20 000. */
  readonly maxRenderedChars?: number;
}

const FACTORY = 'withRedaction';
const LAYER = 'with_redaction';
/** The layer entry of a redacted call: one frozen object, nothing to build per call. */
const OK_ENTRY = Object.freeze({ name: LAYER, status: 'ok' });

function changedKeys(before: JsonObject, after: JsonObject): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter(
    (key) =>
      !Object.hasOwn(before, key) ||
      !Object.hasOwn(after, key) ||
      JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

/**
 * Scrubs secrets on the way in and on the way out. The redactor is called with `phase: 'in'` and
 * the arguments (its `args` go to the tool), then with `phase: 'out'` and the outcome: a returned
 * `result` replaces the structured result *and* the rendered text and observation derived from
 * it (re-rendered; content blocks and artifact references of the unredacted output are dropped); a
 * returned `error` replaces the error text wherever it appears.
 *
 * Fail closed: a redactor that throws (or returns arguments that are not an object) on the way in
 * stops the call (`policy_blocked`); one that throws on the way out withholds the output (status
 * `redacted`, `result` null, a notice as text, `ok` unchanged since the tool did run).
 *
 * Records `audit.metadata.redactedIn` / `redactedOut` (other metadata keys are kept) and a layer
 * entry `{ name: 'with_redaction', status: 'ok' | 'failed' | 'withheld', phase?, error? }`.
 *
 * @example
 * withRedaction(({ phase, args, result }) =>
 *   phase === 'in' ? { args: omit(args, 'token') } : { result: scrubEmails(result) });
 */
export function withRedaction(redactor: Redactor, options?: RedactionOptions): ToolCaller {
  checkFunction(FACTORY, 'redactor', redactor);
  const settings = optionsObject(FACTORY, options);
  const maxChars = checkNonNegative(
    FACTORY,
    'maxRenderedChars',
    settings.maxRenderedChars ?? DEFAULT_MAX_RENDERED_CHARS,
    { integer: true },
  );

  /**
   * The redactor's answer. A redactor that answers synchronously is answered synchronously: no
   * promise and no microtask turn per phase for the common case.
   */
  function ask(input: RedactionInput): RedactionOutput | Promise<RedactionOutput> {
    let output: ReturnType<Redactor>;
    try {
      output = redactor(input);
    } catch (error) {
      throw failureOf(input, error);
    }
    if (typeof (output as PromiseLike<unknown> | null | undefined)?.then !== 'function') {
      return isPlainObject(output) ? (output as RedactionOutput) : {};
    }
    return Promise.resolve(output).then(
      (answer) => (isPlainObject(answer) ? answer : {}),
      (error: unknown) => {
        throw failureOf(input, error);
      },
    );
  }

  /** What a redactor's failure becomes: the call's cancellation, or a `RedactorFailure`. */
  function failureOf(input: RedactionInput, error: unknown): unknown {
    const signal = input.call.signal;
    if (signal?.aborted) return abortError(signal);
    if (CancelledError.isInstance(error)) return error;
    return new RedactorFailure(error);
  }

  function recorded(
    result: ToolCallResult,
    redactedIn: readonly string[],
    redactedOut: readonly string[],
    layer: AuditLayer,
  ): ToolCallResult {
    const prior = result.audit?.metadata;
    // Not `{ ...prior, redactedIn, redactedOut }`: on Node 20 properties a spread copy does not
    // have yet are added through slow runtime calls, on every call; Object.assign adds them at speed.
    const metadata = Object.assign({}, isPlainObject(prior) ? prior : undefined, {
      redactedIn,
      redactedOut,
    });
    return attachLayer(result, layer, { metadata });
  }

  async function with_redaction(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    try {
      let inbound: RedactionOutput;
      try {
        // A copy: a redactor that edits in place must not change the arguments the dispatcher
        // validated (the executor would trust its verdict on them).
        const asked = ask({
          phase: 'in',
          toolName: call.toolName,
          args: cloneJson(call.toolArgs),
          result: null,
          error: null,
          call,
        });
        inbound = asked instanceof Promise ? await asked : asked;
        if (inbound.args !== undefined && !isPlainObject(inbound.args)) {
          // Never thrown to the caller: its text becomes the layer entry's `error` on the result.
          throw new RedactorFailure('the redactor returned arguments that are not an object');
        }
      } catch (error) {
        if (!(error instanceof RedactorFailure)) throw error;
        // The arguments could not be checked: they stay off the result too.
        return shortCircuitResult(
          { ...call, toolArgs: {} },
          {
            status: 'policy_blocked',
            error: `${FACTORY}: the arguments of \`${call.toolName}\` could not be checked for secrets; the call did not run`,
            audit: {
              metadata: { redactedIn: [], redactedOut: [] },
              layers: [{ name: LAYER, status: 'failed', phase: 'in', error: error.message }],
            },
          },
        );
      }
      const args = inbound.args ?? call.toolArgs;
      const redactedIn =
        inbound.redactedFields === undefined
          ? inbound.args === undefined
            ? []
            : changedKeys(call.toolArgs, args)
          : [...inbound.redactedFields];
      const result = await next(args === call.toolArgs ? call : { ...call, toolArgs: args });
      let outbound: RedactionOutput;
      try {
        const asked = ask({
          phase: 'out',
          toolName: call.toolName,
          args,
          result: result.result ?? null,
          error: typeof result.error === 'string' ? result.error : null,
          call,
        });
        outbound = asked instanceof Promise ? await asked : asked;
      } catch (error) {
        if (!(error instanceof RedactorFailure)) throw error;
        return recorded(withheldResult(result), redactedIn, [], {
          name: LAYER,
          status: 'withheld',
          phase: 'out',
          error: error.message,
        });
      }
      const redactedOut =
        outbound.redactedFields === undefined
          ? [
              ...(outbound.result === undefined ? [] : ['result']),
              ...(typeof outbound.error === 'string' ? ['error'] : []),
            ]
          : [...outbound.redactedFields];
      return recorded(
        redactedResult(result, outbound, maxChars),
        redactedIn,
        redactedOut,
        OK_ENTRY,
      );
    } catch (error) {
      return layerFailure(call, error, LAYER);
    }
  }

  return with_redaction;
}

/** A redactor threw: carried to the phase that decides how to fail closed. */
class RedactorFailure extends Error {
  constructor(cause: unknown) {
    super(errorMessage(cause), { cause });
    this.name = 'RedactorFailure';
  }
}
