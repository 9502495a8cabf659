import { performance } from 'node:perf_hooks';
import { AbortLink } from '../cancellation.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError, ToolTimeoutError } from '../errors.js';
import {
  checkBoolean,
  checkNonNegative,
  checkNumberMap,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import { type LayerStage, Passage, type PassageSteps, stageLayer } from './layer-stage.js';

/** Options of `withTimeout`. */
export interface TimeoutOptions {
  /** Time budget of a call, in ms. Required. */
  readonly maxMs: number;
  /** Budgets per tool (canonical name), in ms, instead of `maxMs`. */
  readonly perTool?: Readonly<Record<string, number>>;
  /** Leads the error text. Default `tool call exceeded time budget`. */
  readonly message?: string;
  /** Also abort the call at the limit (its signal aborts with a `ToolTimeoutError`). Default false. */
  readonly hard?: boolean;
  /** Monotonic clock, in ms. Default `performance.now`. */
  readonly now?: () => number;
}

const FACTORY = 'withTimeout';
const LAYER = 'with_timeout';
/** A soft budget never aborts the call. */
const NEVER = () => false;

/**
 * Gives each call a time budget (`perTool[tool] ?? maxMs`). By default it observes: the call always
 * runs to completion, and one that took `limit` ms or more becomes `ok: false`, status `error`,
 * category `timeout`, error `"<message> (elapsed: Xms, limit: Yms)"`, with the original `result`
 * kept and the note put before its observation. With `hard: true` the call's signal also aborts at
 * the limit, so the executor stops waiting (`timeout` result; a worker tool's worker is terminated).
 * `maxMs: 0` breaches every call.
 *
 * Layer entry: `{ name: 'with_timeout', status: 'ok' | 'timeout', elapsedMs, limitMs }`.
 *
 * @example
 * withTimeout({ maxMs: 30_000, perTool: { web_fetch: 10_000 }, hard: true });
 */
export function withTimeout(options: TimeoutOptions): ToolCaller {
  return stageLayer(timeoutStage(options));
}

/** One call's budget, as the stage measures it. */
interface Budget {
  readonly call: ToolCallEnvelope;
  readonly limitMs: number;
  readonly started: number;
  /** True once a hard budget aborted the call. */
  readonly fired: () => boolean;
}

/** The stage of `withTimeout`. */
export function timeoutStage(options: TimeoutOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  if (settings.maxMs === undefined) {
    throw new InvalidOptionError('maxMs', `${FACTORY}: maxMs must be a non-negative number of ms`);
  }
  const maxMs = checkNonNegative(FACTORY, 'maxMs', settings.maxMs);
  const perTool =
    settings.perTool === undefined
      ? new Map<string, number>()
      : checkNumberMap(FACTORY, 'perTool', settings.perTool);
  const message = checkString(
    FACTORY,
    'message',
    settings.message ?? 'tool call exceeded time budget',
  );
  const hard = checkBoolean(FACTORY, 'hard', settings.hard ?? false);
  const now = checkOptionalFunction(FACTORY, 'now', settings.now) ?? (() => performance.now());

  /** The result with the budget's verdict (within it, or breached) on its way out. */
  function leaving(budget: Budget): PassageSteps['leave'] {
    return (result, audit) => {
      const { call, limitMs } = budget;
      const elapsedMs = Math.round(now() - budget.started);
      if (!budget.fired() && elapsedMs < limitMs) {
        return audit.record(result, { name: LAYER, status: 'ok', elapsedMs, limitMs });
      }
      const error = `${message} (elapsed: ${elapsedMs}ms, limit: ${limitMs}ms)`;
      const note = `[timeout: ${call.toolName}]\n${error}`;
      const breached: ToolCallResult = {
        ...result,
        ok: false,
        status: result.status === 'timeout' ? 'timeout' : 'error',
        error,
        errorCategory: 'timeout',
        observation: result.observation === '' ? note : `${note}\n${result.observation}`,
      };
      return audit.record(breached, { name: LAYER, status: 'timeout', elapsedMs, limitMs });
    };
  }

  return {
    name: LAYER,
    enter(call) {
      const limitMs = perTool.get(call.toolName) ?? maxMs;
      const started = now();
      if (!hard) {
        return new Passage(call, { leave: leaving({ call, limitMs, started, fired: NEVER }) });
      }
      // The call's signal also aborts, with this very error, at the limit.
      const deadline = new ToolTimeoutError(call.toolName, limitMs);
      const link = new AbortLink(call.signal, {
        timeoutMs: limitMs,
        timeoutReason: () => deadline,
      });
      const fired = () => link.reason === deadline;
      return new Passage(
        { ...call, signal: link.signal },
        {
          leave: leaving({ call, limitMs, started, fired }),
          failed(error) {
            // A layer below may let the abort reason escape instead of answering: still our timeout.
            if (error !== deadline) throw error;
            return shortCircuitResult(call, { status: 'timeout' });
          },
          done: () => link.dispose(),
        },
      );
    },
  };
}
