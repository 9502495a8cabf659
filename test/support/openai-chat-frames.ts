import type { ScriptedCall, ScriptedUsage, SseStep, WireReply } from './openai-wire-script.js';

/**
 * Chat Completions replies from short descriptions: streamed chunks (SSE) and JSON completions.
 */

/** One `chat.completion.chunk` frame for choice 0. */
export function chatChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): SseStep {
  return {
    data: {
      id: 'chatcmpl_1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    },
  };
}

/** The usage chunk that `stream_options.include_usage` adds after the finish. */
export function chatUsageChunk(usage: ScriptedUsage): SseStep {
  return {
    data: {
      id: 'chatcmpl_1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    },
  };
}

export const chatDone: SseStep = { data: '[DONE]' };

/**
 * The frames of a streamed chat turn as OpenAI sends them: a role chunk (the SDK's helper needs
 * it), the text, then each call in turn (a first fragment with id, name and empty arguments, then
 * one chunk per piece), the finish chunk, the usage chunk and `[DONE]`. Pass `finish: null` to
 * stop after the calls (no finish, usage or `[DONE]`), e.g. before a cut.
 */
export function chatToolCallStream(
  calls: readonly ScriptedCall[],
  options: { text?: string; finish?: string | null; usage?: ScriptedUsage } = {},
): SseStep[] {
  const steps: SseStep[] = [chatChunk({ role: 'assistant', content: null })];
  if (options.text !== undefined) steps.push(chatChunk({ content: options.text }));
  calls.forEach((call, index) => {
    steps.push(
      chatChunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of call.arguments) {
      steps.push(chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const finish = options.finish === undefined ? 'tool_calls' : options.finish;
  if (finish === null) return steps;
  steps.push(chatChunk({}, finish));
  steps.push(chatUsageChunk(options.usage ?? { input: 10, output: 20 }));
  steps.push(chatDone);
  return steps;
}

/** A non-streamed chat completion whose message has this text and these calls. */
export function chatCompletionReply(
  calls: readonly { id: string; name: string; arguments: string }[],
  options: { text?: string | null; finish?: string } = {},
): WireReply {
  return {
    json: {
      id: 'chatcmpl_1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          finish_reason: options.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
          logprobs: null,
          message: {
            role: 'assistant',
            content: options.text ?? null,
            refusal: null,
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }),
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    },
  };
}
