import type { Anthropic } from '@anthropic-ai/sdk';
import { InvalidOptionError } from 'switchyard';
import type { BinderFn, BinderRequest, BinderResponse } from 'switchyard/middleware';
import { binderToolName } from 'switchyard/middleware';

/** Options of `createAnthropicBinder`. */
export interface AnthropicBinderOptions {
  /** An Anthropic SDK client. */
  readonly client: Anthropic;
  readonly model: string;
  /** Sent as `max_tokens`. Default 1024. */
  readonly maxTokens?: number;
  /**
   * How the schema is imposed. `json_schema` (default): the Messages API's structured output
   * (`output_config.format`), answered as JSON text. `tool`: a forced call of one tool whose
   * `input_schema` is the schema (`tool_choice: { type: 'tool', name }`), answered as its input;
   * it takes schemas outside the structured-output subset.
   */
  readonly mode?: 'json_schema' | 'tool';
}

/**
 * A binder that asks an Anthropic Messages model for the arguments. The Messages API of version
 * 2026-10-21 (SDK 1.x) has no sampling temperature, so none is sent. One request per call:
 * `maxRetries: 0` is set on the request whatever the client's own setting, and the budget's signal
 * aborts it.
 *
 * Throws `InvalidOptionError` when the client is not an Anthropic SDK client, the model is empty or
 * the mode is unknown.
 *
 * @example
 * const binderFn = createAnthropicBinder({ client: new Anthropic({ apiKey }), model: 'claude-haiku-4-5' });
 */
export function createAnthropicBinder(options: AnthropicBinderOptions): BinderFn {
  const client = options?.client as Partial<Anthropic> | undefined;
  if (typeof client?.messages?.create !== 'function') {
    throw new InvalidOptionError(
      'client',
      'createAnthropicBinder: client must be an Anthropic SDK client (new Anthropic({ ... }))',
    );
  }
  if (typeof options.model !== 'string' || options.model === '') {
    throw new InvalidOptionError(
      'model',
      'createAnthropicBinder: model must be a non-empty string',
    );
  }
  const mode = options.mode ?? 'json_schema';
  if (mode !== 'json_schema' && mode !== 'tool') {
    throw new InvalidOptionError(
      'mode',
      `createAnthropicBinder: mode must be "json_schema" or "tool"; got ${JSON.stringify(mode)}`,
    );
  }
  const { model } = options;
  const messages = (client as Anthropic).messages;
  const maxTokens = options.maxTokens ?? 1024;

  return async function anthropicBinder(request: BinderRequest): Promise<BinderResponse> {
    const schema = request.schema as Record<string, unknown>;
    const name = binderToolName(request.tool);
    const shape =
      mode === 'tool'
        ? {
            tools: [
              {
                name,
                description: request.description,
                input_schema: schema as Anthropic.Messages.Tool.InputSchema,
              },
            ],
            tool_choice: { type: 'tool' as const, name, disable_parallel_tool_use: true },
          }
        : { output_config: { format: { type: 'json_schema' as const, schema } } };
    const message = await messages.create(
      {
        model,
        max_tokens: maxTokens,
        system: request.system,
        messages: [{ role: 'user', content: request.prompt }],
        ...shape,
      },
      { signal: request.signal, maxRetries: 0 },
    );
    if (mode === 'tool') {
      const call = message.content.find((block) => block.type === 'tool_use');
      return call === undefined ? {} : { data: call.input as object };
    }
    const text = message.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('');
    return { text };
  };
}
