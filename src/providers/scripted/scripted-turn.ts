import type { JsonObject } from '../../tools/json.js';
import type { ModelRequest } from '../model-client.js';

/** A call the scripted model proposes. */
export interface ScriptedCall {
  readonly name: string;
  /** An object (written as JSON) or the exact argument text, which may be broken on purpose. */
  readonly arguments?: JsonObject | string;
  /** The provider's call id. Default `call_<turn>_<n>`. */
  readonly id?: string;
  /** A hosted tool the provider runs itself: recorded, never dispatched. */
  readonly providerNative?: boolean;
}

/** One scripted model turn. */
export interface ScriptedTurn {
  /** Prose written before the calls. */
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedCall[];
  /**
   * The finish reason. Default `tool_calls` with calls, `stop` without. `length`, `max_tokens`,
   * `content_filter` and `refusal` are unsafe: calls still open are cut off.
   */
  readonly finish?: string;
  /** Fail the stream after this many deltas (a cut connection, an error frame). */
  readonly failAfter?: { readonly deltas: number; readonly error?: unknown };
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A turn, or a function of the request that writes one (to answer from tool results). */
export type ScriptedReply = ScriptedTurn | ((request: ModelRequest, turn: number) => ScriptedTurn);

const UNSAFE_FINISHES = new Set(['length', 'max_tokens', 'content_filter', 'refusal']);

/** True when a finish reason leaves calls still open complete enough to run. */
export function isSafeFinish(reason: string): boolean {
  return !UNSAFE_FINISHES.has(reason);
}
