import type { AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import {
  checkNonNegative,
  checkNumberMap,
  checkOneOf,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import { isPlainObject } from '../tools/json.js';
import { CallCounter, type CounterWindow } from './call-counter.js';
import { type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { isCertainlyRefused, refusedPassage } from './refused-call.js';

/** Options of `withRateLimit`. */
export interface RateLimitOptions {
  /** Most calls this layer lets through (in all, or per window). Required unless `perTool` is set. */
  readonly maxCalls?: number;
  /** Most calls per tool (canonical name), on top of `maxCalls`. */
  readonly perTool?: Readonly<Record<string, number>>;
  /** Count per window instead of for the layer's lifetime. `mode` default `sliding`. */
  readonly window?: { readonly ms: number; readonly mode?: 'sliding' | 'fixed' };
  /** Leads the error text. Default `rate limit exceeded`. */
  readonly message?: string;
  /** Clock for windows, in ms. Default `Date.now`. */
  readonly now?: () => number;
}

const FACTORY = 'withRateLimit';
const LAYER = 'with_rate_limit';

function readWindow(value: unknown): CounterWindow {
  if (value === undefined) return { mode: 'lifetime' };
  if (!isPlainObject(value)) {
    throw new InvalidOptionError('window', `${FACTORY}: window must be { ms, mode? }`);
  }
  const ms = checkNonNegative(FACTORY, 'window.ms', value.ms);
  if (ms === 0) throw new InvalidOptionError('window.ms', `${FACTORY}: window.ms must be > 0`);
  const mode = checkOneOf(FACTORY, 'window.mode', value.mode ?? 'sliding', ['sliding', 'fixed']);
  return { mode, ms };
}

/**
 * Caps how many calls pass. By default the cap is for the layer's lifetime (never replenished);
 * with `window` it is per fixed or sliding window. `perTool` adds caps per tool. A slot is
 * reserved synchronously before the call goes on, so the caps are exact under any concurrency; a
 * call blocked by one cap spends nothing from the other. A blocked call short-circuits with
 * category `rate_limited`: `"<message> (cap: N, count: C)"`. `maxCalls: 0` blocks everything.
 * Calls the executor will refuse anyway (unknown tool, unreadable arguments) are not counted.
 *
 * Layer entry: ok `{ name: 'with_rate_limit', status: 'ok', count, cap, toolCount?, toolCap? }`
 * (count 1-based, including this call); blocked `{ status: 'blocked', scope: 'global' | 'tool',
 * count, cap, retryAfterMs? }` (count before this call).
 *
 * @example
 * withRateLimit({ maxCalls: 100, perTool: { web_search: 10 }, window: { ms: 60_000 } });
 */
export function withRateLimit(options: RateLimitOptions): ToolCaller {
  return stageLayer(rateLimitStage(options));
}

/** What a blocked call's result says. */
interface Blocked {
  readonly scope: 'global' | 'tool';
  /** Calls counted before this one. */
  readonly count: number;
  readonly cap: number;
  readonly retryAfterMs: number | undefined;
}

/** The stage of `withRateLimit`. */
export function rateLimitStage(options: RateLimitOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  if (settings.maxCalls === undefined && settings.perTool === undefined) {
    throw new InvalidOptionError('maxCalls', `${FACTORY}: maxCalls must be a non-negative integer`);
  }
  const maxCalls =
    settings.maxCalls === undefined
      ? undefined
      : checkNonNegative(FACTORY, 'maxCalls', settings.maxCalls, { integer: true });
  const perTool =
    settings.perTool === undefined
      ? new Map<string, number>()
      : checkNumberMap(FACTORY, 'perTool', settings.perTool, { integer: true });
  const window = readWindow(settings.window);
  const message = checkString(FACTORY, 'message', settings.message ?? 'rate limit exceeded');
  const now = checkOptionalFunction(FACTORY, 'now', settings.now) ?? Date.now;
  const overall = maxCalls === undefined ? undefined : new CallCounter(window);
  const byTool = new Map<string, CallCounter>();

  function toolCounter(toolName: string): CallCounter {
    let counter = byTool.get(toolName);
    if (counter === undefined) {
      counter = new CallCounter(window);
      byTool.set(toolName, counter);
    }
    return counter;
  }

  function blocked(
    call: ToolCallEnvelope,
    { scope, count, cap, ...hint }: Blocked,
  ): ToolCallResult {
    // A cap of 0 never admits anything, whatever the window: no retry hint.
    const retryAfterMs = cap === 0 ? undefined : hint.retryAfterMs;
    const subject = scope === 'tool' ? ` for tool \`${call.toolName}\`` : '';
    const retry = retryAfterMs === undefined ? '' : `, retry after ${Math.ceil(retryAfterMs)} ms`;
    const layer: AuditLayer = {
      name: LAYER,
      status: 'blocked',
      scope,
      count,
      cap,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
    return shortCircuitResult(call, {
      status: 'error',
      errorCategory: 'rate_limited',
      error: `${message}${subject} (cap: ${cap}, count: ${count}${retry})`,
      audit: { layers: [layer] },
    });
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return refusedPassage(call);
      const at = now();
      const toolCap = perTool.get(call.toolName);
      const tool = toolCap === undefined ? undefined : toolCounter(call.toolName);
      const used = overall?.used(at) ?? 0;
      const toolUsed = tool?.used(at) ?? 0;
      if (overall !== undefined && maxCalls !== undefined && used >= maxCalls) {
        const retryAfterMs = overall.retryAfterMs(at);
        return blocked(call, { scope: 'global', count: used, cap: maxCalls, retryAfterMs });
      }
      if (tool !== undefined && toolCap !== undefined && toolUsed >= toolCap) {
        const retryAfterMs = tool.retryAfterMs(at);
        return blocked(call, { scope: 'tool', count: toolUsed, cap: toolCap, retryAfterMs });
      }
      // Both caps checked before either is spent: nothing to roll back when one of them blocks.
      overall?.take(at);
      tool?.take(at);
      // Built member by member: spreads in a literal add their members through slow runtime calls.
      const layer: { name: string; status: string; [key: string]: unknown } = {
        name: LAYER,
        status: 'ok',
      };
      if (maxCalls !== undefined) {
        layer.count = used + 1;
        layer.cap = maxCalls;
      }
      if (toolCap !== undefined) {
        layer.toolCount = toolUsed + 1;
        layer.toolCap = toolCap;
      }
      return new Passage(call, { leave: (result, audit) => audit.record(result, layer) });
    },
  };
}
