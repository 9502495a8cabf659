import { performance } from 'node:perf_hooks';
import { AbortLink } from '../cancellation.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError, ToolTimeoutError } from '../errors.js';
import {
  checkBoolean,
  checkNonNegative,
  checkNumberMap,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import { attachLayer } from './attach-audit.js';
import { layerFailure } from './layer-failure.js';

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

/** Runs `next` with a signal that also aborts, with a `ToolTimeoutError`, after `limitMs`. */
async function runAborting(
  call: ToolCallEnvelope,
  next: Next,
  limitMs: number,
): Promise<{ result: ToolCallResult | undefined; fired: boolean }> {
  const deadline = new ToolTimeoutError(call.toolName, limitMs);
  const link = new AbortLink(call.signal, { timeoutMs: limitMs, timeoutReason: () => deadline });
  try {
    return {
      result: await next({ ...call, signal: link.signal }),
      fired: link.reason === deadline,
    };
  } catch (error) {
    // A layer below may let the abort reason escape instead of answering: it is still our timeout.
    if (error === deadline) return { result: undefined, fired: true };
    throw error;
  } finally {
    link.dispose();
  }
}

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

  async function with_timeout(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    try {
      const limitMs = perTool.get(call.toolName) ?? maxMs;
      const started = now();
      const outcome = hard
        ? await runAborting(call, next, limitMs)
        : { result: await next(call), fired: false };
      const elapsedMs = Math.round(now() - started);
      const result = outcome.result ?? shortCircuitResult(call, { status: 'timeout' });
      if (!outcome.fired && elapsedMs < limitMs) {
        return attachLayer(result, { name: LAYER, status: 'ok', elapsedMs, limitMs });
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
      return attachLayer(breached, {
        name: LAYER,
        status: 'timeout',
        elapsedMs,
        limitMs,
      });
    } catch (error) {
      return layerFailure(call, error, LAYER);
    }
  }

  return with_timeout;
}
