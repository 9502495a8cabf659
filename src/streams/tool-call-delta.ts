/** A response as its provider recorded it, replayed only to that provider. */
export interface ProviderContent {
  /** Which adapter recorded it (`anthropic`, `openai-responses`); other adapters ignore it. */
  readonly provider: string;
  readonly content: unknown;
}

/**
 * The provider-neutral shape of a streamed model response, as far as tool calls are concerned.
 * Provider adapters translate their SDK's stream events into these; the native detector assembles
 * them into proposed calls.
 *
 * `key` identifies one call within one response: the Chat Completions `index`, the Responses
 * `item_id`, or the Anthropic content-block `index` (as a string).
 */
export type ToolCallDelta =
  /** A call opened: its name is known, its arguments follow. */
  | {
      readonly type: 'call_start';
      readonly key: string;
      /** The provider's call id (Responses `call_id`, Anthropic `tool_use.id`), when known. */
      readonly id?: string;
      readonly name: string;
      /** Calls the provider ran itself (e.g. hosted tool search): recorded, never dispatched. */
      readonly providerNative?: boolean;
    }
  /** A fragment of a call's JSON arguments. */
  | { readonly type: 'call_arguments'; readonly key: string; readonly fragment: string }
  /** The provider closed the call's block: its arguments are complete. */
  | { readonly type: 'call_end'; readonly key: string; readonly arguments?: string }
  /** Visible text the model wrote. */
  | { readonly type: 'text'; readonly text: string }
  /**
   * The response ended. `reason` is the provider's word (`tool_calls`, `tool_use`, `stop`,
   * `end_turn`, `length`, `max_tokens`, …); `safe` says whether calls still open may be finalised
   * (true for a normal end, false when the output was cut off or filtered).
   */
  | {
      readonly type: 'finish';
      readonly reason: string;
      readonly safe: boolean;
      /**
       * The provider paused a long turn of its own tools (Anthropic `pause_turn`): send the turn
       * back as it is, and the model carries on with it.
       */
      readonly paused?: boolean;
    }
  /**
   * The provider's own record of the response, to replay the turn to that provider verbatim where
   * the neutral transcript cannot (Anthropic content blocks with hosted tool results or thinking,
   * Responses output items with reasoning or hosted calls).
   * Sent before the `finish`, only when needed.
   */
  | { readonly type: 'provider_content'; readonly content: ProviderContent }
  /** Token usage, when the provider reports it. */
  | {
      readonly type: 'usage';
      readonly inputTokens: number;
      readonly outputTokens: number;
    };
