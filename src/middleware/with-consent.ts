import { type DenialGate, terminalDenial } from '../dispatch/denials.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, errorMessage, ToolTimeoutError } from '../errors.js';
import {
  checkBoolean,
  checkFunction,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import { isPlainObject } from '../tools/json.js';
import { ConsentQueue } from './consent-queue.js';
import { isoTime } from './iso-time.js';
import { type Entered, type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { abortError } from './race-abort.js';
import { isCertainlyRefused, refusedPassage } from './refused-call.js';

/** A detailed answer to a consent question. A `decision` that is not a refusal lets the call run. */
export interface ConsentDecision {
  /**
   * `approved`, `auto`, … or `denied`. Missing or empty counts as denied, and so do `deny`,
   * `rejected`, `declined`, `refused`, `no` in any case (recorded as `denied`).
   */
  readonly decision: string;
  /** Who decided (a user id, `auto`, a policy name). Default: the layer's `decidedBy`. */
  readonly decidedBy?: string;
  /** Why; the error text the model sees when denied. */
  readonly reason?: string;
}

/** Asks whether a call may run: `true`/`false`, or a `ConsentDecision`. Throwing denies. */
export type ConsentPrompt = (
  call: ToolCallEnvelope,
) => boolean | ConsentDecision | Promise<boolean | ConsentDecision>;

/** Options of `withConsent`. */
export interface ConsentOptions {
  /** Which calls need consent. Default `needsConsent`: confirmation-required or destructive tools. */
  readonly when?: (call: ToolCallEnvelope) => boolean;
  /** Ask one question at a time, in planner order. Default true. */
  readonly serialize?: boolean;
  /** Recorded as `decidedBy` when the prompt does not say. Default `with_consent`. */
  readonly decidedBy?: string;
  /** Wall clock for `decidedAt`, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** What `withConsent` records on `audit.consent`. */
export interface ConsentRecord {
  readonly decision: string;
  readonly decidedBy: string;
  /** ISO time of the answer. */
  readonly decidedAt: string;
  readonly reason?: string;
}

/** A consent record being built; `unavailable` marks a prompt that threw (kept off the record). */
interface Answer {
  decision: string;
  decidedBy: string;
  decidedAt: string;
  reason?: string;
  unavailable?: true;
}

const FACTORY = 'withConsent';
const LAYER = 'with_consent';
const DEFAULT_DENIAL = 'consent denied by middleware';
/** Decision words that refuse, whatever their case: a prompt saying "rejected" must not run the call. */
const REFUSALS = new Set([
  'denied',
  'deny',
  'rejected',
  'reject',
  'declined',
  'decline',
  'refused',
  'no',
]);

/**
 * The result of a call whose consent was refused: `status: 'error'`, `errorCategory:
 * 'consent_denied'`, the reason (or "consent denied by middleware") as the error the model reads,
 * `consent` on `audit.consent` with a `{ name: layer, status: 'denied' }` entry, and a terminal
 * denial at `gate`. `withConsent` and a run journal's durable approvals both refuse this way.
 */
export function consentDeniedResult(
  call: ToolCallEnvelope,
  consent: ConsentRecord,
  options: { readonly layer: string; readonly gate: DenialGate },
): ToolCallResult {
  const reason = consent.reason ?? DEFAULT_DENIAL;
  return shortCircuitResult(call, {
    status: 'error',
    errorCategory: 'consent_denied',
    error: reason,
    audit: { consent, layers: [{ name: options.layer, status: 'denied' }] },
    denial: terminalDenial(options.gate, reason),
  });
}

/**
 * The default `when`: a tool that asks for confirmation, or a destructive one. Tools that leave
 * their effects undeclared resolve as destructive, so only tools declared read-only (or declared
 * not destructive) run without a question.
 */
export function needsConsent(call: ToolCallEnvelope): boolean {
  const safety = call.annotations.safety;
  return safety === undefined || safety.requiresConfirmation || safety.destructive;
}

/**
 * Asks before a call runs. The prompt answers `true`/`false` or `{ decision, decidedBy, reason }`;
 * a decision that is not a refusal lets the call run; `false`, a missing decision, `denied` (or
 * `rejected`, `no`, … in any case) or a prompt that throws refuse it with a `consent_denied` result
 * (the reason, or "consent denied by middleware", is the error the model reads) carrying a typed
 * denial. The answer is recorded on `audit.consent`.
 *
 * Parallel calls are asked one at a time in planner order (`serialize`, default on). A call the
 * executor will refuse anyway (unknown tool, unreadable arguments) is not asked about. Cancelling
 * the call while it waits or is being asked rejects with `CancelledError` (never a denial).
 *
 * Layer entry: `{ name: 'with_consent', status: 'denied' | <decision> }`.
 *
 * @example
 * const caller = composeToolCallers([withConsent(async (call) => ui.confirm(`Run ${call.toolName}?`))]);
 */
export function withConsent(prompt: ConsentPrompt, options?: ConsentOptions): ToolCaller {
  return stageLayer(consentStage(prompt, options));
}

/** The stage of `withConsent`. */
export function consentStage(prompt: ConsentPrompt, options?: ConsentOptions): LayerStage {
  checkFunction(FACTORY, 'prompt', prompt);
  const settings = optionsObject(FACTORY, options);
  const when = checkOptionalFunction(FACTORY, 'when', settings.when) ?? needsConsent;
  const serialize = checkBoolean(FACTORY, 'serialize', settings.serialize ?? true);
  const decidedBy = checkString(FACTORY, 'decidedBy', settings.decidedBy ?? LAYER, {
    nonEmpty: true,
  });
  const now = checkOptionalFunction(FACTORY, 'now', settings.now) ?? Date.now;
  const queue = serialize ? new ConsentQueue() : undefined;

  /** A refusal (`unavailable`) for a prompt that threw; cancellation and timeouts propagate. */
  function unavailable(call: ToolCallEnvelope, error: unknown): Answer {
    if (call.signal?.aborted) throw abortError(call.signal);
    if (CancelledError.isInstance(error) || ToolTimeoutError.isInstance(error)) throw error;
    const refusal: Answer = record('denied', decidedBy, errorMessage(error));
    refusal.unavailable = true;
    return refusal;
  }

  /** What an answer of the prompt records. */
  function read(answer: unknown): Answer {
    if (answer === true) return record('approved', decidedBy);
    if (!isPlainObject(answer)) return record('denied', decidedBy);
    const by =
      typeof answer.decidedBy === 'string' && answer.decidedBy !== ''
        ? answer.decidedBy
        : decidedBy;
    const reason =
      typeof answer.reason === 'string' && answer.reason !== '' ? answer.reason : undefined;
    const word = typeof answer.decision === 'string' ? answer.decision.trim() : '';
    const decision = word === '' || REFUSALS.has(word.toLowerCase()) ? 'denied' : word;
    return record(decision, by, reason);
  }

  /**
   * The answer; `unavailable` when the prompt threw instead of answering. A prompt that answers
   * synchronously is read synchronously: no promise per call for policy functions.
   */
  function decide(call: ToolCallEnvelope): Answer | Promise<Answer> {
    let answer: ReturnType<ConsentPrompt>;
    try {
      answer = prompt(call);
    } catch (error) {
      return unavailable(call, error);
    }
    if (typeof (answer as PromiseLike<unknown> | null | undefined)?.then !== 'function') {
      return read(answer);
    }
    return Promise.resolve(answer).then(read, (error: unknown) => unavailable(call, error));
  }

  function record(decision: string, by: string, reason?: string): Answer {
    const answer: Answer = { decision, decidedBy: by, decidedAt: isoTime(now()) };
    if (reason !== undefined) answer.reason = reason;
    return answer;
  }

  /** The call handed on once its answer let it run, or its refusal. */
  function answered(call: ToolCallEnvelope, answer: Answer): Entered {
    if (answer.decision === 'denied') {
      // Only a refusal can carry `unavailable` (the prompt threw): it stays off the record.
      const { unavailable, ...consent } = answer;
      return consentDeniedResult(call, consent, {
        layer: LAYER,
        gate: unavailable ? 'approval_unavailable' : 'approval_policy',
      });
    }
    const entry = { name: LAYER, status: answer.decision };
    const extra = { consent: answer };
    return new Passage(call, { leave: (result, audit) => audit.record(result, entry, extra) });
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return refusedPassage(call);
      if (!when(call)) return new Passage(call);
      const asked =
        queue === undefined
          ? decide(call)
          : queue.ask(call.turn.emitOrder, call.signal, () => decide(call));
      return asked instanceof Promise
        ? asked.then((answer) => answered(call, answer))
        : answered(call, asked);
    },
  };
}
