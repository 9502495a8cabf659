import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import { checkPositive, optionsObject } from '../option-checks.js';
import type { JsonObject } from '../tools/json.js';
import { type Entered, type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { redactedResult } from './redacted-result.js';
import { isCertainlyRefused } from './refused-call.js';

/**
 * What a guardrail decided. `allow` (or returning nothing) lets the call or its result through;
 * `block` refuses it with a reason the model reads (status `guardrail_tripped`); `replace` (on
 * output only) lets the call succeed with `output` in place of the tool's result; `halt` refuses
 * it and stops the run (status `guardrail_halted`; the agent loop ends `halted`).
 */
export type GuardrailVerdict =
  | { readonly action: 'allow' }
  | { readonly action: 'block'; readonly reason: string }
  | { readonly action: 'replace'; readonly output: unknown; readonly reason?: string }
  | { readonly action: 'halt'; readonly reason: string };

/** What an input guardrail sees: the call before anything runs. */
export interface GuardrailInput {
  readonly toolName: string;
  readonly callId: string;
  readonly arguments: JsonObject;
}

/** What an output guardrail sees: the call and the result the tool produced. */
export interface GuardrailOutput extends GuardrailInput {
  readonly result: ToolCallResult;
}

/** A guardrail's check: a verdict trips it, undefined lets the call (or its result) through. */
export type GuardrailCheck<T> = (
  subject: T,
) => GuardrailVerdict | undefined | Promise<GuardrailVerdict | undefined>;

/**
 * A user check on tool calls. Either half may be left out; both may be async (a model, a
 * moderation API). What a check throws fails the call as the layer's failure
 * (`tool_middleware_exception`): a guardrail that cannot decide does not let the call through.
 */
export interface ToolGuardrail {
  /** Named in the audit entry and the reasons. */
  readonly name: string;
  /** The tools it watches, by canonical name. Default: every tool. */
  readonly tools?: readonly string[];
  /** Runs on the arguments before the tool (and before consent and binders, in the stack). */
  readonly input?: GuardrailCheck<GuardrailInput>;
  /** Runs on a result of the tool (`ok` or `error`) before the model sees it. */
  readonly output?: GuardrailCheck<GuardrailOutput>;
}

/** Options of `withGuardrails`. */
export interface GuardrailsOptions {
  /** Checked in order; the first that trips decides. */
  readonly guardrails: readonly ToolGuardrail[];
  /** Longest rendered replacement output. Default 100 000 characters. */
  readonly maxChars?: number;
}

const FACTORY = 'withGuardrails';
const LAYER = 'with_guardrails';
const PASSED = Object.freeze({ name: LAYER, status: 'ok' });

/**
 * Runs guardrails on each call's arguments before it runs and on its result before the model
 * sees it. The first guardrail that trips decides: `block` answers `guardrail_tripped` with
 * `guardrail <name>: <reason>` (on output, the tool's result is withheld); `replace` swaps the
 * result's value and text, status kept; `halt` answers `guardrail_halted` and the agent loop
 * stops after the turn. Calls of unknown tools or unreadable arguments pass untouched (the
 * executor refuses them).
 *
 * Layer entry: `{ name: 'with_guardrails', status: 'ok' | 'blocked' | 'replaced' | 'halted',
 * guardrail?, stage?: 'input' | 'output', reason? }`.
 *
 * @throws InvalidOptionError for a guardrail without a name or with a check that is not a function.
 * @example
 * const noSecrets: ToolGuardrail = {
 *   name: 'no-secrets',
 *   output: ({ result }) => (/sk-[A-Za-z0-9]{20}/.test(result.renderedResult) ? { action: 'block', reason: 'the output held a key' } : undefined),
 * };
 * const dispatcher = createDispatcher({ registry, caller: withGuardrails({ guardrails: [noSecrets] }) });
 */
export function withGuardrails(options: GuardrailsOptions): ToolCaller {
  return stageLayer(guardrailsStage(options));
}

/** The work of `withGuardrails` as a stage (for `governanceStack`). */
export function guardrailsStage(options: GuardrailsOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  const guardrails = checkGuardrails(settings.guardrails);
  const maxChars = checkPositive(FACTORY, 'maxChars', settings.maxChars ?? 100_000, {
    integer: true,
  });
  const watching = (call: ToolCallEnvelope, half: 'input' | 'output') =>
    guardrails.filter(
      (guardrail) =>
        guardrail[half] !== undefined &&
        (guardrail.tools === undefined || guardrail.tools.includes(call.toolName)),
    );

  /** The call handed on, its result checked on the way out by the output guardrails. */
  function passage(call: ToolCallEnvelope, subject: GuardrailInput): Passage {
    const outputGuardrails = watching(call, 'output');
    if (outputGuardrails.length === 0) {
      return new Passage(call, { leave: (result, audit) => audit.record(result, PASSED) });
    }
    return new Passage(call, {
      async leave(result, audit) {
        if (result.status !== 'ok' && result.status !== 'error') {
          return audit.record(result, PASSED);
        }
        for (const guardrail of outputGuardrails) {
          const verdict = await guardrail.output?.({ ...subject, result });
          if (verdict === undefined || verdict.action === 'allow') continue;
          const entry = entryOf(guardrail.name, 'output', verdict);
          if (verdict.action === 'replace') {
            return audit.record(
              redactedResult(result, { result: verdict.output }, maxChars),
              entry,
            );
          }
          return audit.record(withheld(result, verdict, guardrail.name), entry);
        }
        return audit.record(result, PASSED);
      },
    });
  }

  async function checkInput(
    call: ToolCallEnvelope,
    subject: GuardrailInput,
    inputGuardrails: readonly ToolGuardrail[],
  ): Promise<Entered> {
    for (const guardrail of inputGuardrails) {
      const verdict = await guardrail.input?.(subject);
      if (verdict === undefined || verdict.action === 'allow' || verdict.action === 'replace') {
        continue;
      }
      return refused(call, guardrail.name, 'input', verdict);
    }
    return passage(call, subject);
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return new Passage(call);
      const subject = { toolName: call.toolName, callId: call.callId, arguments: call.toolArgs };
      const inputGuardrails = watching(call, 'input');
      // No input check: no promise to wait for on the way in.
      if (inputGuardrails.length === 0) return passage(call, subject);
      return checkInput(call, subject, inputGuardrails);
    },
  };
}

function entryOf(name: string, stage: 'input' | 'output', verdict: GuardrailVerdict) {
  const status =
    verdict.action === 'block' ? 'blocked' : verdict.action === 'halt' ? 'halted' : 'replaced';
  const reason = 'reason' in verdict ? verdict.reason : undefined;
  return {
    name: LAYER,
    status,
    guardrail: name,
    stage,
    ...(reason === undefined ? {} : { reason }),
  };
}

function refused(
  call: ToolCallEnvelope,
  name: string,
  stage: 'input' | 'output',
  verdict: Extract<GuardrailVerdict, { action: 'block' | 'halt' }>,
): ToolCallResult {
  return shortCircuitResult(call, {
    status: statusOf(verdict),
    error: `guardrail ${name}: ${verdict.reason}`,
    audit: { layers: [entryOf(name, stage, verdict)] },
  });
}

/** The result of a call that ran, its output withheld from the model. */
function withheld(
  result: ToolCallResult,
  verdict: Extract<GuardrailVerdict, { action: 'block' | 'halt' }>,
  name: string,
): ToolCallResult {
  const status = statusOf(verdict);
  const error = `guardrail ${name}: ${verdict.reason}`;
  const { content: _content, artifacts: _artifacts, ...rest } = result;
  return {
    ...rest,
    ok: false,
    status,
    result: null,
    renderedResult: '',
    observation: `[blocked: ${result.toolName} — ${status}]\n${error}`,
    error,
    errorCategory: status,
  };
}

function statusOf(verdict: Extract<GuardrailVerdict, { action: 'block' | 'halt' }>) {
  return verdict.action === 'halt' ? 'guardrail_halted' : 'guardrail_tripped';
}

function checkGuardrails(value: unknown): readonly ToolGuardrail[] {
  if (!Array.isArray(value)) {
    throw new InvalidOptionError('guardrails', `${FACTORY}: guardrails must be an array`);
  }
  value.forEach((guardrail: ToolGuardrail, index) => {
    const bad = (what: string) =>
      new InvalidOptionError('guardrails', `${FACTORY}: guardrails[${index}] ${what}`);
    if (typeof guardrail?.name !== 'string' || guardrail.name === '') throw bad('needs a name');
    for (const half of ['input', 'output'] as const) {
      if (guardrail[half] !== undefined && typeof guardrail[half] !== 'function') {
        throw bad(`${half} must be a function`);
      }
    }
    if (guardrail.input === undefined && guardrail.output === undefined) {
      throw bad('needs an input or an output check');
    }
  });
  return [...value];
}
