import type { ToolCallDelta } from 'switchyard/streams';

const TOKEN_FIELDS = [
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'output_tokens',
] as const;

type TokenField = (typeof TOKEN_FIELDS)[number];

/**
 * The token counts of one streamed message. `message_start` reports the input, `message_delta`
 * the output so far; both are cumulative, and fields a delta does not update are null, so only
 * numbers overwrite.
 */
export class TokenUsage {
  /** The latest number reported for each usage field. */
  private readonly counts = new Map<TokenField, number>();

  constructor(usage?: object) {
    if (usage !== undefined) this.update(usage);
  }

  update(usage: object): this {
    for (const field of TOKEN_FIELDS) {
      const value = (usage as Partial<Record<TokenField, unknown>>)[field];
      if (typeof value === 'number') this.counts.set(field, value);
    }
    return this;
  }

  /** Input is fresh plus cached input tokens: what the request used in all. */
  delta(): ToolCallDelta {
    const count = (field: TokenField) => this.counts.get(field) ?? 0;
    return {
      type: 'usage',
      inputTokens:
        count('input_tokens') +
        count('cache_creation_input_tokens') +
        count('cache_read_input_tokens'),
      outputTokens: count('output_tokens'),
    };
  }
}
