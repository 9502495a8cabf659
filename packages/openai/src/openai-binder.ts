import type { OpenAI } from 'openai';
import { InvalidOptionError } from 'switchyard';
import type { BinderFn, BinderRequest, BinderResponse } from 'switchyard/middleware';
import { binderToolName } from 'switchyard/middleware';

/** Options of `createOpenAIBinder`. */
export interface OpenAIBinderOptions {
  /** An OpenAI SDK client (any OpenAI-compatible server: set its `baseURL`). */
  readonly client: OpenAI;
  readonly model: string;
  /** Default 0. */
  readonly temperature?: number;
  /** Sent as `max_completion_tokens`. Default 1024. */
  readonly maxTokens?: number;
  /**
   * Ask for strict structured output. Default true. OpenAI's strict mode only takes schemas whose
   * properties are all required and that set `additionalProperties: false`; set false for others.
   */
  readonly strict?: boolean;
}

/**
 * A binder that asks an OpenAI Chat Completions model for the arguments, with the tool's schema as
 * a `json_schema` response format. One request per call: `maxRetries: 0` is set on the request
 * whatever the client's own setting, and the budget's signal aborts it.
 *
 * Throws `InvalidOptionError` when the client is not an OpenAI SDK client or the model is empty.
 *
 * @example
 * const binderFn = createOpenAIBinder({
 *   client: new OpenAI({ apiKey, baseURL: 'https://api.cerebras.ai/v1' }),
 *   model: 'gpt-oss-120b',
 * });
 */
export function createOpenAIBinder(options: OpenAIBinderOptions): BinderFn {
  const client = options?.client as Partial<OpenAI> | undefined;
  if (typeof client?.chat?.completions?.create !== 'function') {
    throw new InvalidOptionError(
      'client',
      'createOpenAIBinder: client must be an OpenAI SDK client (new OpenAI({ ... }))',
    );
  }
  if (typeof options.model !== 'string' || options.model === '') {
    throw new InvalidOptionError('model', 'createOpenAIBinder: model must be a non-empty string');
  }
  const { model } = options;
  const completions = (client as OpenAI).chat.completions;
  const temperature = options.temperature ?? 0;
  const maxTokens = options.maxTokens ?? 1024;
  const strict = options.strict ?? true;

  return async function openAIBinder(request: BinderRequest): Promise<BinderResponse> {
    const completion = await completions.create(
      {
        model,
        temperature,
        max_completion_tokens: maxTokens,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: binderToolName(request.tool),
            schema: request.schema as Record<string, unknown>,
            strict,
          },
        },
      },
      { signal: request.signal, maxRetries: 0 },
    );
    // A refusal or an empty answer has no content: it reads as "not valid JSON" (schema_error).
    return { text: completion.choices[0]?.message?.content ?? '' };
  };
}
