import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream } from 'ai/test';

/** A proposed call as the model sends it: name and raw JSON text. */
export interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly input: string;
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model response proposing `calls`. */
export function toolCallResponse(calls: readonly WireCall[]): LanguageModelV4GenerateResult {
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/** A streamed model response: `generated`'s content as stream parts, then its finish. */
export function streamed(generated: LanguageModelV4GenerateResult): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const part of generated.content) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: 't' });
      parts.push({ type: 'text-delta', id: 't', delta: part.text });
      parts.push({ type: 'text-end', id: 't' });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: generated.finishReason, usage: generated.usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** A final text response. */
export function textResponse(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

/** The calls of one step: a good one, an unknown tool, malformed JSON and a schema violation. */
export const MIXED_STEP: readonly WireCall[] = [
  { id: 'c0', name: 'add', input: '{"a":1,"b":2}' },
  { id: 'c1', name: 'subtract', input: '{"a":1,"b":2}' },
  { id: 'c2', name: 'add', input: '{"a":1,' },
  { id: 'c3', name: 'add', input: '{"a":"one","b":2}' },
];
