import type { AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { DEFAULT_MAX_RENDERED_CHARS } from '../dispatch/render-output.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, RedactorFailureError } from '../errors.js';
import { checkFunction, checkNonNegative, optionsObject } from '../option-checks.js';
import { cloneJson } from '../tools/clone-json.js';
import { isPlainObject, type JsonObject } from '../tools/json.js';
import {
  type AuditRecorder,
  type Entered,
  type LayerStage,
  Passage,
  stageLayer,
} from './layer-stage.js';
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
  return stageLayer(redactionStage(redactor, options));
}

/** A result on its way out, and what the layer records about it. */
interface Redacted {
  readonly result: ToolCallResult;
  readonly redactedIn: readonly string[];
  readonly redactedOut: readonly string[];
  readonly entry: AuditLayer;
}

/** The stage of `withRedaction`. */
export function redactionStage(redactor: Redactor, options?: RedactionOptions): LayerStage {
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

  /** What a redactor's failure becomes: the call's cancellation, or a `RedactorFailureError`. */
  function failureOf(input: RedactionInput, error: unknown): unknown {
    const signal = input.call.signal;
    if (signal?.aborted) return abortError(signal);
    if (CancelledError.isInstance(error)) return error;
    return new RedactorFailureError(error);
  }

  function recorded(redacted: Redacted, audit: AuditRecorder): ToolCallResult {
    const { result, redactedIn, redactedOut } = redacted;
    const prior = result.audit?.metadata;
    // Not `{ ...prior, redactedIn, redactedOut }`: on Node 20 properties a spread copy does not
    // have yet are added through slow runtime calls, on every call; Object.assign adds them at speed.
    const metadata = Object.assign({}, isPlainObject(prior) ? prior : undefined, {
      redactedIn,
      redactedOut,
    });
    return audit.record(result, redacted.entry, { metadata });
  }

  /** A redactor that failed on the way in stops the call: the arguments could not be checked. */
  function inboundFailed(call: ToolCallEnvelope, error: unknown): ToolCallResult {
    if (!(error instanceof RedactorFailureError)) throw error;
    // The arguments stay off the result too.
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

  /** The call handed on with the arguments the redactor left, and its way back out. */
  function inboundAnswered(call: ToolCallEnvelope, inbound: RedactionOutput): Entered {
    if (inbound.args !== undefined && !isPlainObject(inbound.args)) {
      // Never thrown to the caller: its text becomes the layer entry's `error` on the result.
      return inboundFailed(
        call,
        new RedactorFailureError('the redactor returned arguments that are not an object'),
      );
    }
    const args = inbound.args ?? call.toolArgs;
    const redactedIn =
      inbound.redactedFields === undefined
        ? inbound.args === undefined
          ? []
          : changedKeys(call.toolArgs, args)
        : [...inbound.redactedFields];
    return new Passage(args === call.toolArgs ? call : { ...call, toolArgs: args }, {
      leave(result, audit) {
        /** A redactor that failed on the way out withholds the output. */
        const withheld = (error: unknown) => {
          if (!(error instanceof RedactorFailureError)) throw error;
          const entry = { name: LAYER, status: 'withheld', phase: 'out', error: error.message };
          return recorded(
            { result: withheldResult(result), redactedIn, redactedOut: [], entry },
            audit,
          );
        };
        const redacted = (outbound: RedactionOutput) => {
          const redactedOut =
            outbound.redactedFields === undefined
              ? [
                  ...(outbound.result === undefined ? [] : ['result']),
                  ...(typeof outbound.error === 'string' ? ['error'] : []),
                ]
              : [...outbound.redactedFields];
          const scrubbed = redactedResult(result, outbound, maxChars);
          return recorded({ result: scrubbed, redactedIn, redactedOut, entry: OK_ENTRY }, audit);
        };
        let asked: RedactionOutput | Promise<RedactionOutput>;
        try {
          asked = ask({
            phase: 'out',
            toolName: call.toolName,
            args,
            result: result.result ?? null,
            error: typeof result.error === 'string' ? result.error : null,
            call,
          });
        } catch (error) {
          return withheld(error);
        }
        return asked instanceof Promise ? asked.then(redacted, withheld) : redacted(asked);
      },
    });
  }

  return {
    name: LAYER,
    enter(call) {
      let asked: RedactionOutput | Promise<RedactionOutput>;
      try {
        // A copy: a redactor that edits in place must not change the arguments the dispatcher
        // validated (the executor would trust its verdict on them).
        asked = ask({
          phase: 'in',
          toolName: call.toolName,
          args: cloneJson(call.toolArgs),
          result: null,
          error: null,
          call,
        });
      } catch (error) {
        return inboundFailed(call, error);
      }
      return asked instanceof Promise
        ? asked.then(
            (inbound) => inboundAnswered(call, inbound),
            (error: unknown) => inboundFailed(call, error),
          )
        : inboundAnswered(call, asked);
    },
  };
}
