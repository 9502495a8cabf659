import type { SessionActor } from '../actors/session-actor.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { attachLayer } from '../middleware/attach-audit.js';

const LAYER = 'with_loop_guard';

/**
 * The agent loop's repetition guard, as a middleware layer over the session actor's loop
 * detector (`harn-behaviour.md` §3.5). Before a call runs: a call repeated `skip` times with the
 * same arguments and result is not executed (`rejected_loop`, `result: {loop_skipped: true,
 * repeat_count}`). After it ran: a result seen `warn` times in a row gets a warning appended to
 * its observation; `block` times, the observation is replaced by a hard stop message. Calls
 * that failed validation pass untouched: they never run and repeat nothing.
 *
 * @example
 * const session = createSessionActor({ sessionId: 's1', loop: { warn: 2, block: 3, skip: 4 } });
 * const caller = composeToolCallers([withLoopGuard(session), ...yourLayers]);
 */
export function withLoopGuard(session: SessionActor): ToolCaller {
  return async function with_loop_guard(call, next) {
    if (!call.validation.valid) return next(call);
    const check = await session.beforeDispatch(call.toolName, call.toolArgs);
    if (check.action === 'skip') {
      const result = shortCircuitResult(call, {
        status: 'rejected_loop',
        errorCategory: 'rejected_loop',
        error: `tool loop detected (skipped after ${check.repeatCount} repeats)`,
        observation: check.message,
        result: { loop_skipped: true, repeat_count: check.repeatCount },
      });
      return attachLayer(result, { name: LAYER, status: 'rejected_loop' });
    }
    const result = await next(call);
    const verdict = await session.afterDispatch(result);
    if (verdict.action === 'none') return result;
    return attachLayer(withObservation(result, verdict.action, verdict.message), {
      name: LAYER,
      status: verdict.action === 'warn' ? 'loop_warned' : 'loop_blocked',
    });
  };
}

function withObservation(
  result: ToolCallResult,
  action: 'warn' | 'block',
  message: string,
): ToolCallResult {
  const observation = action === 'warn' ? `${result.observation}\n\n${message}` : message;
  return { ...result, observation };
}
